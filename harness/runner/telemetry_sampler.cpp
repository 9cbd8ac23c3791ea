#include "harness/runner/telemetry_sampler.hpp"

#include <unistd.h>

#include <algorithm>

#include "benchmarks/common/nvml_library.hpp"
#include "harness/results/clock_events.hpp"
#include "harness/results/statistics.hpp"

namespace gpubench {

TelemetrySample read_telemetry(const NvmlLibrary& nvml, nvmlDevice_t device) {
  TelemetrySample s;
  unsigned int value = 0;
  if (nvml.nvmlDeviceGetClockInfo_ && nvml.nvmlDeviceGetClockInfo_(device, NVML_CLOCK_SM, &value) == NVML_SUCCESS) s.sm_clock_mhz = value;
  if (nvml.nvmlDeviceGetClockInfo_ && nvml.nvmlDeviceGetClockInfo_(device, NVML_CLOCK_MEM, &value) == NVML_SUCCESS) s.memory_clock_mhz = value;
  if (nvml.nvmlDeviceGetTemperature_ && nvml.nvmlDeviceGetTemperature_(device, NVML_TEMPERATURE_GPU, &value) == NVML_SUCCESS) s.temperature_c = value;
  if (nvml.nvmlDeviceGetPowerUsage_ && nvml.nvmlDeviceGetPowerUsage_(device, &value) == NVML_SUCCESS) s.power_w = value / 1000.0;
  unsigned long long reasons = 0;
  if (nvml.nvmlDeviceGetCurrentClocksEventReasons_ && nvml.nvmlDeviceGetCurrentClocksEventReasons_(device, &reasons) == NVML_SUCCESS) {
    s.clock_event_reasons = reasons;
    s.clock_event_reasons_read = true;
  }
  return s;
}

nlohmann::json telemetry_json(const std::vector<TelemetrySample>& samples) {
  using nlohmann::json;
  json series = json::array();
  std::uint64_t reasons = 0;
  for (const TelemetrySample& s : samples) {
    series.push_back({s.t, s.sm_clock_mhz, s.memory_clock_mhz, s.temperature_c, s.power_w, s.clock_event_reasons});
    reasons |= s.clock_event_reasons;
  }
  json summary = json::object();
  const auto field = [&](const char* name, double TelemetrySample::*member) {
    std::vector<double> values;
    for (const TelemetrySample& s : samples) {
      if (s.*member >= 0) values.push_back(s.*member);
    }
    if (values.empty()) return;
    summary[name] = {{"min", *std::min_element(values.begin(), values.end())},
                     {"median", median(values)},
                     {"max", *std::max_element(values.begin(), values.end())}};
  };
  field("sm_clock_mhz", &TelemetrySample::sm_clock_mhz);
  field("memory_clock_mhz", &TelemetrySample::memory_clock_mhz);
  field("temperature_c", &TelemetrySample::temperature_c);
  field("power_w", &TelemetrySample::power_w);
  summary["clock_event_reasons"] = clock_event_names(reasons);
  summary["throttled"] = is_throttling(reasons);
  return json{{"columns", {"t_s", "sm_clock_mhz", "memory_clock_mhz", "temperature_c", "power_w", "clock_event_reasons"}},
              {"samples", series},
              {"summary", summary}};
}

TelemetrySampler::TelemetrySampler(const NvmlLibrary* nvml, std::vector<Target> targets, std::chrono::milliseconds interval)
    : nvml_(nvml), targets_(std::move(targets)), interval_(interval), samples_(targets_.size()),
      processes_(targets_.size()) {}

TelemetrySampler::~TelemetrySampler() {
  if (running_) stop();
}

void TelemetrySampler::start() {
  if (nvml_ == nullptr || targets_.empty()) return;
  started_ = std::chrono::steady_clock::now();
  for (auto& series : samples_) series.clear();
  for (auto& seen : processes_) seen.reset();
  running_ = true;
  thread_ = std::thread([this] { loop(); });
}

void TelemetrySampler::loop() {
  while (running_) {
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    for (std::size_t i = 0; i < targets_.size(); ++i) {
      if (targets_[i].device == nullptr) continue;
      TelemetrySample s = read_telemetry(*nvml_, targets_[i].device);
      s.t = t;
      const GpuProcessReading listed = read_gpu_processes(*nvml_, targets_[i].device);
      std::vector<GpuProcess> others;
      for (const GpuProcess& process : listed.processes.value_or(std::vector<GpuProcess>{})) {
        if (!started_by(process.pid, static_cast<unsigned>(getpid()))) others.push_back(process);
      }
      std::lock_guard<std::mutex> lock(mutex_);
      samples_[i].push_back(s);
      if (!listed.processes) continue;
      if (!processes_[i]) processes_[i].emplace();
      tally_processes(*processes_[i], others, t);
    }
    const auto wake = std::chrono::steady_clock::now() + interval_;
    while (running_ && std::chrono::steady_clock::now() < wake) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

nlohmann::json TelemetrySampler::stop() {
  nlohmann::json out = nlohmann::json::object();
  if (!running_) return out;
  running_ = false;
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  for (std::size_t i = 0; i < targets_.size(); ++i) {
    if (samples_[i].empty()) continue;
    nlohmann::json& gpu = out["gpu" + std::to_string(targets_[i].index)] = telemetry_json(samples_[i]);
    if (processes_[i]) gpu["processes"] = other_processes_json(*processes_[i]);
  }
  return out;
}

}  // namespace gpubench
