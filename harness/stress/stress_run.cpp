#include "harness/stress/stress_run.hpp"

#include <cuda_runtime.h>

#include <memory>
#include <mutex>
#include <thread>

#include "benchmarks/common/nvml_library.hpp"
#include "harness/runner/telemetry_sampler.hpp"
#include "harness/stress/interconnect_load.hpp"
#include "harness/stress/stress_loads.hpp"

namespace gpubench {
namespace {

using Clock = std::chrono::steady_clock;

// Uncorrectable and correctable ECC error counts since the driver loaded.
void read_ecc(const NvmlLibrary& nvml, nvmlDevice_t device, StressSample& sample) {
  if (nvml.nvmlDeviceGetTotalEccErrors_ == nullptr) return;
  unsigned long long count = 0;
  if (nvml.nvmlDeviceGetTotalEccErrors_(device, NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_VOLATILE_ECC, &count) == NVML_SUCCESS) {
    sample.ecc_corrected = static_cast<double>(count);
  }
  if (nvml.nvmlDeviceGetTotalEccErrors_(device, NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC, &count) == NVML_SUCCESS) {
    sample.ecc_uncorrected = static_cast<double>(count);
  }
}

// What the rules hold the run against, read once before it: slowdown temperature, enforced power limit, maximum
// SM clock. Only read; nothing is set.
void read_limits(const NvmlLibrary& nvml, nvmlDevice_t device, GpuStressRecord& record) {
  unsigned int value = 0;
  if (nvml.nvmlDeviceGetTemperatureThreshold_ != nullptr &&
      nvml.nvmlDeviceGetTemperatureThreshold_(device, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN, &value) == NVML_SUCCESS) {
    record.slowdown_threshold_c = value;
  }
  if (nvml.nvmlDeviceGetEnforcedPowerLimit_ != nullptr && nvml.nvmlDeviceGetEnforcedPowerLimit_(device, &value) == NVML_SUCCESS) {
    record.power_limit_w = value / 1000.0;
  }
  if (nvml.nvmlDeviceGetMaxClockInfo_ != nullptr && nvml.nvmlDeviceGetMaxClockInfo_(device, NVML_CLOCK_SM, &value) == NVML_SUCCESS) {
    record.max_sm_clock_mhz = value;
  }
}

// The copies beside the load, set up before it so that the memory test's share is measured after their buffers.
// A set-up that fails is every GPU's interconnect error, and the load runs without copies.
std::unique_ptr<InterconnectPlan> set_up_interconnect(const StressOptions& options, std::vector<GpuStressRecord>& records) {
  if (!options.interconnect) return nullptr;
  for (GpuStressRecord& record : records) record.interconnect.ran = true;
  try {
    auto plan = std::make_unique<InterconnectPlan>(plan_interconnect(options.devices));
    for (std::size_t g = 0; g < records.size(); ++g) {
      records[g].interconnect.p2p_peer = plan->loads[g]->peer();
      records[g].interconnect.p2p_skipped = plan->p2p_skipped[g];
    }
    return plan;
  } catch (const std::exception& error) {
    for (GpuStressRecord& record : records) record.interconnect.error = std::string("setting up the copies: ") + error.what();
    return nullptr;
  }
}

// What the live display is given of a record: all but its series, and their last entries. Copying the series whole
// each second would cost a long run more each second (a month on eight GPUs holds over a gigabyte of readings).
// They are moved aside while the rest is copied, and back.
GpuStressRecord latest_of(GpuStressRecord& record) {
  std::vector<StressSample> telemetry = std::move(record.telemetry);
  std::vector<StressWindow> windows = std::move(record.windows);
  std::vector<PulseBurst> bursts = std::move(record.bursts);
  GpuStressRecord latest = record;
  record.telemetry = std::move(telemetry);
  record.windows = std::move(windows);
  record.bursts = std::move(bursts);
  if (!record.telemetry.empty()) latest.telemetry.push_back(record.telemetry.back());
  if (!record.windows.empty()) latest.windows.push_back(record.windows.back());
  if (!record.bursts.empty()) latest.bursts.push_back(record.bursts.back());
  return latest;
}

}  // namespace

std::vector<GpuStressRecord> run_stress(const StressOptions& options, const NvmlLibrary* nvml,
                                        const std::atomic<bool>& stop, const StressProgress& progress) {
  std::vector<GpuStressRecord> records(options.devices.size());
  std::vector<nvmlDevice_t> handles(options.devices.size(), nullptr);
  for (std::size_t g = 0; g < options.devices.size(); ++g) {
    records[g].index = options.devices[g];
    records[g].mode = options.mode;
    cudaDeviceProp props{};
    if (cudaGetDeviceProperties(&props, options.devices[g]) == cudaSuccess) records[g].name = props.name;
    if (nvml != nullptr) handles[g] = nvml->device_for_cuda_index(options.devices[g]);
    if (handles[g] != nullptr) read_limits(*nvml, handles[g], records[g]);
  }
  // Critical Xid errors arrive as NVML events; the telemetry thread polls for them without blocking.
  nvmlEventSet_t events = nullptr;
  if (nvml != nullptr && nvml->nvmlEventSetCreate_ != nullptr && nvml->nvmlEventSetCreate_(&events) == NVML_SUCCESS) {
    for (nvmlDevice_t handle : handles) {
      if (handle != nullptr && nvml->nvmlDeviceRegisterEvents_ != nullptr) {
        nvml->nvmlDeviceRegisterEvents_(handle, nvmlEventTypeXidCriticalError, events);
      }
    }
  }
  const std::unique_ptr<InterconnectPlan> links = set_up_interconnect(options, records);
  std::mutex mutex;
  const auto started = Clock::now();
  const LoadClock clock{started, started + options.duration};
  std::vector<std::thread> workers;
  for (std::size_t g = 0; g < options.devices.size(); ++g) {
    workers.emplace_back([&, g] {
      try {
        if (options.mode == StressMode::Pulse) {
          run_pulse_load(options.devices[g], options, clock, stop, records[g], mutex);
        } else {
          run_steady_load(options.devices[g], options, clock, stop, records[g], mutex);
        }
      } catch (const std::exception& error) {
        std::lock_guard<std::mutex> lock(mutex);
        records[g].worker_error = error.what();
      }
    });
    if (!links) continue;
    workers.emplace_back([&, g] {
      InterconnectLoad& load = *links->loads[g];
      const InterconnectLoad* peer = nullptr;
      for (const auto& other : links->loads) {
        if (load.peer() >= 0 && other->device() == load.peer()) peer = other.get();
      }
      try {
        load.run(peer ? peer->outgoing() : nullptr, clock.deadline, stop, records[g].interconnect, mutex);
      } catch (const std::exception& error) {
        std::lock_guard<std::mutex> lock(mutex);
        records[g].interconnect.error = error.what();
      }
    });
  }
  std::atomic<bool> workers_done{false};
  std::thread telemetry([&] {
    while (!workers_done) {
      const double t = std::chrono::duration<double>(Clock::now() - started).count();
      for (std::size_t g = 0; g < handles.size(); ++g) {
        if (handles[g] == nullptr) continue;
        const TelemetrySample reading = read_telemetry(*nvml, handles[g]);
        StressSample sample{t, reading.temperature_c, reading.power_w, reading.sm_clock_mhz, reading.memory_clock_mhz,
                            reading.clock_event_reasons};
        read_ecc(*nvml, handles[g], sample);
        std::lock_guard<std::mutex> lock(mutex);
        records[g].telemetry.push_back(sample);
      }
      if (events != nullptr && nvml->nvmlEventSetWait_ != nullptr) {
        nvmlEventData_t data{};
        while (nvml->nvmlEventSetWait_(events, &data, 0) == NVML_SUCCESS) {
          for (std::size_t g = 0; g < handles.size(); ++g) {
            if (handles[g] != data.device) continue;
            std::lock_guard<std::mutex> lock(mutex);
            records[g].xid_events.push_back("Xid " + std::to_string(data.eventData) + " at " + std::to_string(static_cast<int>(t)) + " s");
          }
        }
      }
      if (progress) {
        std::vector<GpuStressRecord> snapshot;
        {
          std::lock_guard<std::mutex> lock(mutex);
          for (GpuStressRecord& record : records) snapshot.push_back(latest_of(record));
        }
        progress(t, snapshot);
      }
      const auto wake = Clock::now() + std::chrono::seconds(1);
      while (!workers_done && Clock::now() < wake) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  for (std::thread& worker : workers) worker.join();
  workers_done = true;
  telemetry.join();
  if (events != nullptr && nvml->nvmlEventSetFree_ != nullptr) nvml->nvmlEventSetFree_(events);
  return records;
}

}  // namespace gpubench
