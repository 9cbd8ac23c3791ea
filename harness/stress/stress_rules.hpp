#pragma once
// The verdict of a stress run, per GPU and for the node.
//   fail  any result mismatch (silent data corruption), memory test error, new uncorrectable ECC error,
//         critical Xid, failed load; temperature at or past the slowdown threshold or the configured
//         maximum; hardware slowdown, hardware thermal slowdown or power-brake throttling; throughput
//         drifting down more than `drift` from the first window after the warm-up to the last (a card
//         settles onto its power cap in its first seconds; that drop is not drift); a GPU more than
//         `sibling` slower than the best GPU of the node
//   warn  software thermal slowdown; new correctable ECC errors
//   info  software power capping (expected under a full Tensor Core load: the card runs at its power limit)
#include <string>
#include <vector>

#include "harness/results/grade.hpp"
#include "harness/stress/stress_record.hpp"

namespace gpubench {

struct StressLimits {
  double max_temperature_c = 85;
  double drift = 0.10;
  double sibling = 0.10;
  double warmup_s = 10;  // windows that start earlier are not compared for drift
};

struct StressFinding {
  std::string check;     // stable id: "corruption.gemm", "temperature.slowdown", "throttle.hw_slowdown", ...
  std::string severity;  // fail, warn, info
  std::string message;
};

struct GpuStressVerdict {
  int index = 0;
  Grade verdict = Grade::Pass;
  double median_tflops = 0;
  double max_temperature_c = -1;
  double max_power_w = -1;
  std::vector<StressFinding> findings;
};

// What a finding does to its GPU's verdict: fail and warn as they say, info nothing.
Grade grade_of_stress_finding(const StressFinding& finding);

std::vector<GpuStressVerdict> judge_stress(const std::vector<GpuStressRecord>& gpus, const StressLimits& limits);

// The worst GPU's verdict.
Grade node_verdict(const std::vector<GpuStressVerdict>& verdicts);

}  // namespace gpubench
