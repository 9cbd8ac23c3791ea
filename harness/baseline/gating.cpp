#include "harness/baseline/gating.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "harness/results/statistics.hpp"

namespace gpubench {
namespace {

constexpr double kKnownSpreadSignificance = 3.0;

// "4.1", "0.18", "18": two significant digits, none after the point from 10 on.
std::string percent(double fraction) {
  char text[32];
  const double value = 100 * fraction;
  std::snprintf(text, sizeof text, value >= 10 ? "%.0f %%" : "%.2g %%", value);
  return text;
}

}  // namespace

double baseline_noise(const BaselineMetric& metric) {
  const int runs = std::max(metric.runs, 1);
  const double t = runs >= 2 ? student_t_three_sigma(runs - 1) : kKnownSpreadSignificance;
  return t * metric.spread * std::sqrt(1.0 + 1.0 / runs);
}

std::string why_not_gating(const BaselineMetric& metric) {
  if (metric.runs <= 1) return "";
  if (metric.expected <= 0) return "the baseline expects 0, so no relative change can be judged";
  const double band = baseline_noise(metric) / metric.expected;
  if (band <= metric.tolerance) return "";
  return "run-to-run spread " + percent(metric.spread / metric.expected) + " over " + std::to_string(metric.runs) +
         " runs: noise alone moves it up to " + percent(band) + ", wider than its " + percent(metric.tolerance) +
         " tolerance";
}

}  // namespace gpubench
