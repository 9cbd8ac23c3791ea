#include "harness/baseline/gating.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "harness/results/statistics.hpp"

namespace gpubench {
namespace {

constexpr double kKnownSpreadSignificance = 3.0;
// How much wider than its tolerance a metric's noise band may be while it still gates. A gating metric is
// called a regression once it moves past both, so with this it catches every change past 1.5 x its tolerance:
// a GPU 10 % slower at GEMM (5 % tolerance) fails even where power capping moves GEMM 1.5 % between runs,
// while a launch latency that moves 10 % between runs (a band of ~45 % from ten runs) stays informational.
constexpr double kWidestBandOverTolerance = 1.5;

// "4.1", "0.18", "18": two significant digits, none after the point from 10 on.
std::string percent(double fraction) {
  char text[32];
  const double value = 100 * fraction;
  std::snprintf(text, sizeof text, value >= 10 ? "%.0f %%" : "%.2g %%", value);
  return text;
}

}  // namespace

double noise_per_unit_spread(int runs) {
  runs = std::max(runs, 1);
  const double t = runs >= 2 ? student_t_three_sigma(runs - 1) : kKnownSpreadSignificance;
  return t * std::sqrt(1.0 + 1.0 / runs);
}

double baseline_noise(const BaselineMetric& metric) { return noise_per_unit_spread(metric.runs) * metric.spread; }

std::string why_not_gating(const BaselineMetric& metric) {
  if (metric.expected <= 0) return "the baseline expects 0, so no relative change can be judged";
  const double band = baseline_noise(metric) / metric.expected;
  if (band <= kWidestBandOverTolerance * metric.tolerance) return "";
  return "run-to-run spread " + percent(metric.spread / metric.expected) + " over " + std::to_string(metric.runs) +
         (metric.runs == 1 ? " run" : " runs") + ": noise alone moves it up to " + percent(band) + ", over 1.5 x its " +
         percent(metric.tolerance) + " tolerance";
}

}  // namespace gpubench
