#include "harness/mpi/rank_clocks.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "benchmarks/common/nvml_library.hpp"

namespace gpubench {

std::string read_rank_clocks(const NvmlLibrary* nvml, int cuda_device) {
  nlohmann::json reading = nlohmann::json::object();
  const nvmlDevice_t device = nvml ? nvml->device_for_cuda_index(cuda_device) : nullptr;
  if (device == nullptr) return reading.dump();
  unsigned int sm_mhz = 0;
  if (nvml->nvmlDeviceGetClockInfo_ && nvml->nvmlDeviceGetClockInfo_(device, NVML_CLOCK_SM, &sm_mhz) == NVML_SUCCESS) {
    reading["sm_clock_mhz"] = sm_mhz;
  }
  unsigned long long reasons = 0;
  if (nvml->nvmlDeviceGetCurrentClocksEventReasons_ && nvml->nvmlDeviceGetCurrentClocksEventReasons_(device, &reasons) == NVML_SUCCESS) {
    reading["clock_event_reasons"] = static_cast<std::uint64_t>(reasons);
  }
  return reading.dump();
}

RankClocks combine_rank_clocks(const std::vector<std::string>& per_rank) {
  RankClocks clocks;
  for (const std::string& text : per_rank) {
    const nlohmann::json reading = nlohmann::json::parse(text);
    if (reading.contains("sm_clock_mhz")) {
      const double mhz = reading.at("sm_clock_mhz").get<double>();
      clocks.sm_clock_mhz = std::min(clocks.sm_clock_mhz.value_or(mhz), mhz);
    }
    if (reading.contains("clock_event_reasons")) {
      clocks.clock_event_reasons = clocks.clock_event_reasons.value_or(0) | reading.at("clock_event_reasons").get<std::uint64_t>();
    }
  }
  return clocks;
}

}  // namespace gpubench
