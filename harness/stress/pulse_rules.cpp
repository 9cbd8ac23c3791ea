#include "harness/stress/pulse_rules.hpp"

#include <algorithm>
#include <cstdio>

#include "harness/results/statistics.hpp"

namespace gpubench {
namespace {

std::string period_name(double period_ms) {
  char text[32];
  if (period_ms >= 1000) {
    std::snprintf(text, sizeof text, "%g s", period_ms / 1000);
  } else {
    std::snprintf(text, sizeof text, "%g ms", period_ms);
  }
  return text;
}

}  // namespace

PulseResult judge_pulse(const GpuStressRecord& gpu, const std::vector<double>& periods_ms, const StressLimits& limits,
                        std::vector<StressFinding>& findings) {
  PulseResult result;
  std::vector<double> warm;
  for (const StressWindow& w : gpu.windows) warm.push_back(w.tflops);
  if (warm.empty()) {
    if (!gpu.bursts.empty()) findings.push_back({"pulse.not_judged", "warn", "no steady throughput to hold the bursts against"});
    return result;
  }
  result.steady_tflops = median(warm);
  for (double period : periods_ms) {
    PulsePeriodResult p;
    p.period_ms = period;
    std::vector<double> rates;
    for (const PulseBurst& b : gpu.bursts) {
      if (b.period_ms == period) rates.push_back(b.tflops);
    }
    p.bursts = rates.size();
    const std::string name = period_name(period) + " period";
    if (rates.empty()) {
      findings.push_back({"pulse.not_run", "warn", name + ": no burst ran (the run ended before it): run the pulse load for longer"});
      result.periods.push_back(p);
      continue;
    }
    p.median_tflops = median(rates);
    p.slowest_tflops = *std::min_element(rates.begin(), rates.end());
    p.collapsed = static_cast<std::size_t>(std::count_if(
        rates.begin(), rates.end(), [&](double r) { return r < limits.collapse * result.steady_tflops; }));
    char text[384];
    std::snprintf(text, sizeof text, "%s: %zu bursts, median %.1f TFLOP/s (%.0f %% of the steady %.1f), slowest %.1f, %zu under %.0f %%",
                  name.c_str(), p.bursts, p.median_tflops, 100 * p.median_tflops / result.steady_tflops,
                  result.steady_tflops, p.slowest_tflops, p.collapsed, 100 * limits.collapse);
    if (p.collapsed > 1 && p.collapsed > limits.collapse_share * static_cast<double>(p.bursts)) {
      findings.push_back({"pulse.clock_collapse", "fail",
                          std::string(text) + ": the clocks collapse when the load steps up: check the power delivery"});
    } else if (p.collapsed > 0) {
      findings.push_back({"pulse.clock_collapse", "warn", std::string(text) + ": a rare collapse, not yet a pattern"});
    } else {
      findings.push_back({"pulse.period", "info", text});
    }
    result.periods.push_back(p);
  }
  return result;
}

}  // namespace gpubench
