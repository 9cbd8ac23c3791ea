#pragma once
// Clock collapse under steady load (sustained and power loads): an SM clock reading over the steady part under
// limits.collapse of the median steady clock fails, with the lowest reading and when it came.
#include <vector>

#include "harness/stress/stress_finding.hpp"

namespace gpubench {

void judge_clock_collapse(const GpuStressRecord& gpu, const StressLimits& limits, std::vector<StressFinding>& findings);

}  // namespace gpubench
