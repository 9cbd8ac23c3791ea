#include "harness/stress/power_target_rules.hpp"

#include <algorithm>
#include <cstdio>

#include "harness/results/clock_events.hpp"
#include "harness/results/statistics.hpp"

namespace gpubench {
namespace {

std::string reasons_text(std::uint64_t reasons) {
  std::string text;
  for (const std::string& name : clock_event_names(reasons)) text += (text.empty() ? "" : ", ") + name;
  return text.empty() ? "none" : text;
}

}  // namespace

PowerTargetResult judge_power_target(const GpuStressRecord& gpu, const StressLimits& limits,
                                     std::vector<StressFinding>& findings) {
  PowerTargetResult result;
  result.limit_w = gpu.power_limit_w;
  std::vector<double> power, clock;
  for (const StressSample& s : steady_samples(gpu.telemetry, limits)) {
    if (s.power_w >= 0) power.push_back(s.power_w);
    if (s.sm_clock_mhz >= 0) clock.push_back(s.sm_clock_mhz);
    result.max_temperature_c = std::max(result.max_temperature_c, s.temperature_c);
    result.clock_event_reasons |= s.clock_event_reasons;
  }
  if (gpu.power_limit_w <= 0 || power.size() < 3) {
    findings.push_back({"power.not_judged", "warn",
                        gpu.power_limit_w <= 0 ? "NVML gave no enforced power limit: the power target was not judged"
                                               : "fewer than 3 power readings after the warm-up: run the power load for longer"});
    return result;
  }
  result.judged = true;
  result.median_w = median(power);
  if (!clock.empty()) result.median_sm_clock_mhz = median(clock);
  const double fraction = result.median_w / gpu.power_limit_w;
  result.reached = fraction >= limits.power_target;
  char text[512];
  std::snprintf(text, sizeof text,
                "median %.0f W of its %.0f W enforced limit (%.0f %%, target %.0f %%) over %zu s after the warm-up; SM "
                "clock %.0f MHz (maximum %.0f), up to %.0f C, clock-event reasons: %s",
                result.median_w, gpu.power_limit_w, 100 * fraction, 100 * limits.power_target, power.size(),
                result.median_sm_clock_mhz, gpu.max_sm_clock_mhz, result.max_temperature_c,
                reasons_text(result.clock_event_reasons).c_str());
  if (result.reached) {
    findings.push_back({"power.target_reached", "info", std::string("reached its power limit: ") + text});
  } else if (gpu.max_sm_clock_mhz > 0 && result.median_sm_clock_mhz >= limits.full_clock * gpu.max_sm_clock_mhz) {
    findings.push_back({"power.target_not_reached", "warn",
                        std::string("did not reach its power limit at full clocks: the load is too light for this card, "
                                    "nothing held it back: ") + text});
  } else {
    findings.push_back({"power.target_not_reached", "fail",
                        std::string("did not reach its power limit, and its clocks were held below their maximum: check "
                                    "its power delivery and cooling: ") + text});
  }
  return result;
}

}  // namespace gpubench
