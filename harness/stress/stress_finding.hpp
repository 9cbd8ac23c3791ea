#pragma once
// What every stress rule speaks: the limits it judges against and the findings it gives.
#include <string>
#include <vector>

#include "harness/stress/stress_record.hpp"

namespace gpubench {

struct StressLimits {
  double max_temperature_c = 85;
  double drift = 0.10;
  double sibling = 0.10;
  double warmup_s = 10;  // windows that start earlier are not compared for drift; telemetry before it is not steady
  // Power target: reached when the median power over the steady part is at least this fraction of the enforced
  // limit. NVML's power reading is within +/-5 % of the limit, and the result checks between GEMMs draw a little
  // less; a healthy card under this load sits on its cap, so 90 % leaves room for both and still tells a card
  // that cannot draw its power from one that can.
  double power_target = 0.90;
  // An SM clock at or above this fraction of the maximum is flat out: a card below its power target there is
  // not held back, the load is too light for it.
  double full_clock = 0.95;
  // Collapse: an SM clock (sustained, power) or a pulse burst's throughput under this fraction of the steady
  // value while loaded. NVML's HW slowdown cuts the clock by a factor of two or more; a power cap or a warm card
  // costs a few tens of per cent at most.
  double collapse = 0.5;
  // Pulse: a period fails when more than this share of its bursts, and more than one, collapsed (one alone warns).
  double collapse_share = 0.01;
  double tail_s = 2;  // the last seconds of telemetry are not steady either: the GPUs finish at different times
};

struct StressFinding {
  std::string check;     // stable id: "corruption.gemm", "temperature.slowdown", "throttle.hw_slowdown", ...
  std::string severity;  // fail, warn, info
  std::string message;
};

// The telemetry of the loaded, settled part of a run: after the warm-up, before the tail.
inline std::vector<StressSample> steady_samples(const std::vector<StressSample>& telemetry, const StressLimits& limits) {
  std::vector<StressSample> steady;
  if (telemetry.empty()) return steady;
  const double end = telemetry.back().t - limits.tail_s;
  for (const StressSample& s : telemetry) {
    if (s.t >= limits.warmup_s && s.t <= end) steady.push_back(s);
  }
  return steady;
}

}  // namespace gpubench
