#pragma once
// Did the power load hold the GPU at its power limit? Judged on the steady part of the telemetry:
//   reached      median power >= limits.power_target of NVML's enforced limit (info)
//   not reached  fail, unless the SM clock stayed flat out (>= limits.full_clock of its maximum): then nothing
//                held the card back and the load was too light for it (warn)
//   not judged   no readable limit or fewer than three steady samples (warn)
#include <cstdint>
#include <vector>

#include "harness/stress/stress_finding.hpp"

namespace gpubench {

struct PowerTargetResult {
  bool judged = false;
  bool reached = false;
  double limit_w = -1;
  double median_w = -1;
  double median_sm_clock_mhz = -1;
  double max_temperature_c = -1;
  std::uint64_t clock_event_reasons = 0;  // every reason seen over the steady part
};

PowerTargetResult judge_power_target(const GpuStressRecord& gpu, const StressLimits& limits,
                                     std::vector<StressFinding>& findings);

}  // namespace gpubench
