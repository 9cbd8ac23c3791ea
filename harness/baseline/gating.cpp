#include "harness/baseline/gating.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "harness/results/statistics.hpp"

namespace gpubench {
namespace {

constexpr double kKnownSpreadSignificance = 3.0;
// One run (`check --against RUN`): how much wider than its tolerance its noise band may be while it still gates at
// that tolerance. It then catches every change past 1.5 x its tolerance (a GPU 10 % slower at GEMM against 5 %).
// The run's band is another baseline's relative spread, not what this node's processes do, so it is not widened.
constexpr double kOneRunWidestBandOverTolerance = 1.5;

// "4.1 %", "0.18 %", "18 %": two significant digits, none after the point from 10 on.
std::string percent(double fraction) {
  char text[32];
  const double value = 100 * fraction;
  std::snprintf(text, sizeof text, value >= 10 ? "%.0f %%" : "%.2g %%", value);
  return text;
}

double relative_band(const BaselineMetric& metric) { return baseline_noise(metric) / metric.expected; }

std::string spread_text(const BaselineMetric& metric) {
  return "run-to-run spread " + percent(metric.spread / metric.expected) + " over " + std::to_string(metric.runs) +
         (metric.runs == 1 ? " run" : " runs") + ": noise alone moves it up to " + percent(relative_band(metric));
}

}  // namespace

double noise_per_unit_spread(int runs) {
  runs = std::max(runs, 1);
  const double t = runs >= 2 ? student_t_three_sigma(runs - 1) : kKnownSpreadSignificance;
  return t * std::sqrt(1.0 + 1.0 / runs);
}

double baseline_noise(const BaselineMetric& metric) { return noise_per_unit_spread(metric.runs) * metric.spread; }

GatingTolerance gating_tolerance(const BaselineMetric& metric) {
  if (metric.runs < 2 || metric.expected <= 0) return {metric.tolerance, false};
  const double band = relative_band(metric);
  return band > metric.tolerance ? GatingTolerance{band, true} : GatingTolerance{metric.tolerance, false};
}

std::string gates_at_text(const GatingTolerance& tolerance) {
  return percent(tolerance.fraction) + (tolerance.set_by_noise ? ": noise" : "");
}

double halved_link_change(Better better) { return better == Better::Higher ? 0.5 : 1.0; }

double widest_gating_band(Better better) { return halved_link_change(better) / std::sqrt(2.0); }

std::string why_not_gating(const BaselineMetric& metric) {
  if (metric.expected <= 0) return "the baseline expects 0, so no relative change can be judged";
  const double band = relative_band(metric);
  if (metric.runs < 2) {
    if (band <= kOneRunWidestBandOverTolerance * metric.tolerance) return "";
    return spread_text(metric) + ", over 1.5 x its " + percent(metric.tolerance) + " tolerance";
  }
  const double widest = widest_gating_band(metric.better);
  if (band <= widest) return "";
  const double halved = halved_link_change(metric.better);
  return spread_text(metric) + ", wider than " + percent(widest) + ", past which it could not catch a halved link (" +
         (metric.better == Better::Higher ? "-" : "+") + percent(halved) + ")";
}

}  // namespace gpubench
