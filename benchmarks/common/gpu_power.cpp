#include "benchmarks/common/gpu_power.hpp"

#include "benchmarks/common/nvml_library.hpp"

namespace gpubench {

std::optional<double> board_power_watts(const BenchmarkContext& context, const BenchmarkDevice& device) {
  unsigned int milliwatts = 0;
  if (context.nvml == nullptr || device.nvml == nullptr || !context.nvml->nvmlDeviceGetPowerUsage_ ||
      context.nvml->nvmlDeviceGetPowerUsage_(device.nvml, &milliwatts) != NVML_SUCCESS) {
    return std::nullopt;
  }
  return milliwatts / 1000.0;
}

std::optional<double> enforced_power_limit_watts(const BenchmarkContext& context, const BenchmarkDevice& device) {
  unsigned int milliwatts = 0;
  if (context.nvml == nullptr || device.nvml == nullptr || !context.nvml->nvmlDeviceGetEnforcedPowerLimit_ ||
      context.nvml->nvmlDeviceGetEnforcedPowerLimit_(device.nvml, &milliwatts) != NVML_SUCCESS) {
    return std::nullopt;
  }
  return milliwatts / 1000.0;
}

}  // namespace gpubench
