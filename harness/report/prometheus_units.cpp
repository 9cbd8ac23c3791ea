#include "harness/report/prometheus_units.hpp"

#include <map>

namespace gpubench {

std::optional<PrometheusUnit> prometheus_unit(const std::string& unit) {
  static const std::string kTime = "Time a call, a launch or a kernel took, in seconds (gpubench's us, ns and ms).";
  static const std::map<std::string, PrometheusUnit> kUnits = {
      {"GB/s", {"bandwidth_bytes_per_second", 1e9, "Bandwidth in bytes per second (gpubench's GB/s, decimal, x 1e9)."}},
      {"TFLOP/s", {"throughput_flops", 1e12, "Floating-point operations per second (gpubench's TFLOP/s x 1e12)."}},
      {"ms", {"latency_seconds", 1e-3, kTime}},
      {"us", {"latency_seconds", 1e-6, kTime}},
      {"ns", {"latency_seconds", 1e-9, kTime}},
      {"x", {"ratio", 1, "One measurement over another: a speedup, a slowdown, the best shape over the worst (gpubench's x)."}},
      {"%", {"efficiency_ratio", 1e-2, "A share from 0 to 1: overlap efficiency, the largest block left allocatable, the power a stress load reached of its limit (gpubench's % / 100)."}},
  };
  const auto found = kUnits.find(unit);
  if (found == kUnits.end()) return std::nullopt;
  return found->second;
}

}  // namespace gpubench
