#pragma once
// Samples NVML telemetry (SM and memory clocks, temperature, power, clock-event reasons) for a set of GPUs
// on a background thread while a benchmark family runs, and the other processes NVML lists on each (not gpubench nor
// a process it started): the cause to name when a figure measured under contention looks like a slower GPU.
#include <nvml.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/results/other_processes.hpp"

namespace gpubench {

class NvmlLibrary;

struct TelemetrySample {
  double t = 0;  // seconds since start()
  double sm_clock_mhz = -1;
  double memory_clock_mhz = -1;
  double temperature_c = -1;
  double power_w = -1;
  std::uint64_t clock_event_reasons = 0;
  bool clock_event_reasons_read = false;  // false: NVML could not read them (clock_event_reasons stays 0)
};

// One reading now; fields NVML could not read stay at -1.
TelemetrySample read_telemetry(const NvmlLibrary& nvml, nvmlDevice_t device);

// Samples, and min/median/max of each field, as JSON (the shape kept in results documents).
nlohmann::json telemetry_json(const std::vector<TelemetrySample>& samples);

class TelemetrySampler {
 public:
  struct Target {
    int index;
    nvmlDevice_t device;
  };
  TelemetrySampler(const NvmlLibrary* nvml, std::vector<Target> targets, std::chrono::milliseconds interval);
  ~TelemetrySampler();
  TelemetrySampler(const TelemetrySampler&) = delete;
  TelemetrySampler& operator=(const TelemetrySampler&) = delete;

  void start();
  // Stops sampling and returns {"gpu0": {...}, ...}, each GPU's with the other processes seen on it where NVML could
  // list them (`processes`); empty when NVML is unavailable.
  nlohmann::json stop();

 private:
  void loop();

  const NvmlLibrary* nvml_;
  std::vector<Target> targets_;
  std::chrono::milliseconds interval_;
  std::atomic<bool> running_{false};
  std::thread thread_;
  std::mutex mutex_;
  std::vector<std::vector<TelemetrySample>> samples_;
  std::vector<std::optional<std::vector<OtherProcess>>> processes_;  // per target; absent until NVML lists them
  std::chrono::steady_clock::time_point started_;
};

}  // namespace gpubench
