#pragma once
// The verdict of a stress run, per GPU and for the node.
//   fail  any result mismatch (silent data corruption), memory test error, copy that arrived wrong over P2P or
//         PCIe, new uncorrectable ECC error, critical Xid, failed load; temperature at or past the slowdown
//         threshold or the configured maximum; hardware slowdown, hardware thermal slowdown or power-brake
//         throttling; throughput drifting down more than `drift` from the first window after the warm-up to the
//         last (a card settles onto its power cap in its first seconds; that drop is not drift); a GPU more than
//         `sibling` slower than the best GPU of the node; an SM clock collapsing while loaded
//         (clock_collapse_rules.hpp)
//   warn  software thermal slowdown; new correctable ECC errors
//   info  software power capping (expected under a full Tensor Core load: the card runs at its power limit); no
//         P2P traffic under --interconnect, and why
// The power load adds whether it reached the power target (power_target_rules.hpp), the pulse load its bursts
// per period (pulse_rules.hpp).
#include <string>
#include <vector>

#include "harness/results/grade.hpp"
#include "harness/stress/power_target_rules.hpp"
#include "harness/stress/pulse_rules.hpp"
#include "harness/stress/stress_finding.hpp"

namespace gpubench {

struct GpuStressVerdict {
  int index = 0;
  Grade verdict = Grade::Pass;
  double median_tflops = 0;
  double max_temperature_c = -1;
  double max_power_w = -1;
  std::vector<StressFinding> findings;
  StressMode mode = StressMode::Sustained;
  PowerTargetResult power;  // the power load's
  PulseResult pulse;        // the pulse load's
};

// What a finding does to its GPU's verdict: fail and warn as they say, info nothing.
Grade grade_of_stress_finding(const StressFinding& finding);

// Every GPU's record of one run, all under the same mode.
std::vector<GpuStressVerdict> judge_stress(const std::vector<GpuStressRecord>& gpus, const StressLimits& limits);

// The worst GPU's verdict.
Grade node_verdict(const std::vector<GpuStressVerdict>& verdicts);

}  // namespace gpubench
