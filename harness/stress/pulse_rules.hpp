#pragma once
// The pulse load's bursts, per period, against the GPU's steady throughput (the median of its warm-up windows at
// full load): a burst under limits.collapse of it collapsed. Two or more collapsed bursts, and more than
// limits.collapse_share of the period's, fail; fewer warn; a period with no burst warns (the run was too short to reach it). Xids, ECC errors
// and throttling under the pulses are the common stress rules'.
#include <cstddef>
#include <vector>

#include "harness/stress/stress_finding.hpp"

namespace gpubench {

struct PulsePeriodResult {
  double period_ms = 0;
  std::size_t bursts = 0;
  std::size_t collapsed = 0;
  double median_tflops = 0;
  double slowest_tflops = 0;
};

struct PulseResult {
  double steady_tflops = 0;
  std::vector<PulsePeriodResult> periods;
};

PulseResult judge_pulse(const GpuStressRecord& gpu, const std::vector<double>& periods_ms, const StressLimits& limits,
                        std::vector<StressFinding>& findings);

}  // namespace gpubench
