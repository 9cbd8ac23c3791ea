#include "harness/watch/gpu_sampler.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "benchmarks/common/nvml_library.hpp"
#include "harness/doctor/xid_catalogue.hpp"
#include "harness/runner/telemetry_sampler.hpp"

namespace gpubench {
namespace {

using Clock = std::chrono::steady_clock;

// nvml.h, nvmlGpmSampleGet: "The interval between two nvmlGpmSampleGet() calls should be greater than 100ms due
// to the internal sample refresh rate." A call sooner than this after the previous GPM sample leaves the GPM fields
// absent and keeps the older sample as the start of the next interval.
constexpr auto kGpmMinimumGap = std::chrono::milliseconds(100);

// GPM reports utilisations in percent (0.0 - 100.0): stored as shares (x 0.01). It reports PCIe and NVLink traffic
// in MiB/s ("PCIe traffic from this GPU in MiB/sec", "NvLink write bandwidth for all links in MiB/sec"): stored as
// GB/s of 10^9 bytes (x 2^20 / 10^9 = x 0.001048576), as the rest of gpubench counts bandwidth.
constexpr double kPercentToShare = 0.01;
constexpr double kMibPerSecondToGbps = 1048576.0 / 1e9;

struct GpmField {
  unsigned int metric;
  const char* metric_name;  // NVML's, for the reasons a metric failed
  const char* field_name;   // the timeline's
  std::optional<double> GpuSample::*member;
  double scale;
  bool share;  // clamped to 0..1: the timeline's reader refuses a share over 1, and GPM may round a hair above 100
};

// NVML GPM metrics and the DCGM profiling fields they are (docs/watch.md): SM_UTIL is DCGM_FI_PROF_SM_ACTIVE (1002),
// SM_OCCUPANCY 1003, ANY_TENSOR_UTIL PIPE_TENSOR_ACTIVE (1004), DRAM_BW_UTIL DRAM_ACTIVE (1005: a share of the
// theoretical peak), FP64/FP32/FP16_UTIL PIPE_FP64/FP32/FP16_ACTIVE (1006-1008), PCIE_TX/RX_PER_SEC PCIE_TX/RX_BYTES
// (1009-1010), NVLINK_TOTAL_TX/RX_PER_SEC NVLINK_TX/RX_BYTES (1011-1012).
const GpmField kGpmFields[] = {
    {NVML_GPM_METRIC_SM_UTIL, "SM_UTIL", "sm_active", &GpuSample::sm_active, kPercentToShare, true},
    {NVML_GPM_METRIC_SM_OCCUPANCY, "SM_OCCUPANCY", "sm_occupancy", &GpuSample::sm_occupancy, kPercentToShare, true},
    {NVML_GPM_METRIC_ANY_TENSOR_UTIL, "ANY_TENSOR_UTIL", "tensor_active", &GpuSample::tensor_active, kPercentToShare,
     true},
    {NVML_GPM_METRIC_DRAM_BW_UTIL, "DRAM_BW_UTIL", "dram_active", &GpuSample::dram_active, kPercentToShare, true},
    {NVML_GPM_METRIC_FP64_UTIL, "FP64_UTIL", "fp64_active", &GpuSample::fp64_active, kPercentToShare, true},
    {NVML_GPM_METRIC_FP32_UTIL, "FP32_UTIL", "fp32_active", &GpuSample::fp32_active, kPercentToShare, true},
    {NVML_GPM_METRIC_FP16_UTIL, "FP16_UTIL", "fp16_active", &GpuSample::fp16_active, kPercentToShare, true},
    {NVML_GPM_METRIC_PCIE_TX_PER_SEC, "PCIE_TX_PER_SEC", "pcie_tx_gbps", &GpuSample::pcie_tx_gbps,
     kMibPerSecondToGbps, false},
    {NVML_GPM_METRIC_PCIE_RX_PER_SEC, "PCIE_RX_PER_SEC", "pcie_rx_gbps", &GpuSample::pcie_rx_gbps,
     kMibPerSecondToGbps, false},
    {NVML_GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC, "NVLINK_TOTAL_TX_PER_SEC", "nvlink_tx_gbps", &GpuSample::nvlink_tx_gbps,
     kMibPerSecondToGbps, false},
    {NVML_GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC, "NVLINK_TOTAL_RX_PER_SEC", "nvlink_rx_gbps", &GpuSample::nvlink_rx_gbps,
     kMibPerSecondToGbps, false},
};
constexpr std::size_t kGpmFieldCount = sizeof kGpmFields / sizeof kGpmFields[0];
static_assert(kGpmFieldCount <= NVML_GPM_METRIC_MAX);

constexpr double kBytesPerGib = 1024.0 * 1024.0 * 1024.0;

// Theoretical DRAM bandwidth, GB/s: memory clock x 2 (data on both edges) x bus width in bits / 8.
//
// The factor 2 is the one under which NVML's figures give NVIDIA's datasheets: an A100 40GB reads 1215 MHz and
// 5120 bits (1215e6 x 2 x 5120 / 8 = 1555 GB/s, its datasheet's 1,555 GB/s), an H100 SXM 2619 MHz and 5120 bits
// (3352 GB/s, "3.35 TB/s"). An H200 reads 3201 MHz and 6144 bits: 3201e6 x 2 x 6144 / 8 = 4917 GB/s, 2.4 % above
// its datasheet's 4.8 TB/s, which is that figure rounded down for the data sheet rather than another factor (1 or
// 4 would halve or double it). 4917 is kept: DCGM's DRAM_ACTIVE (GPM's DRAM_BW_UTIL,
// "DRAM bw used vs theoretical maximum") is the share of cycles the memory interface was busy, so the share x the
// interface's own peak, clock x width x 2, is the bytes moved. The node's measured HBM ceiling (about 4.43 TB/s
// on the lent H200) is then 90 % of this peak.
std::optional<double> dram_peak_gbps(unsigned int memory_clock_mhz, unsigned int bus_width_bits) {
  if (memory_clock_mhz == 0 || bus_width_bits == 0) return std::nullopt;
  return memory_clock_mhz * 1e6 * 2.0 * bus_width_bits / 8.0 / 1e9;
}

std::string join(const std::vector<std::string>& parts, const char* separator) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : separator) + part;
  return text;
}

}  // namespace

struct GpuSampler::State {
  State(const NvmlLibrary& library, int cuda_index, nvmlDevice_t handle)
      : nvml(library), index(cuda_index), device(handle) {}

  const NvmlLibrary& nvml;
  int index;
  nvmlDevice_t device;

  // GPM: two sample buffers, the newer the start of the next interval; they swap at every GPM sample.
  bool gpm = false;
  nvmlGpmSample_t gpm_samples[2] = {nullptr, nullptr};
  int gpm_latest = -1;  // which buffer holds the newest sample; -1: none to compute from
  Clock::time_point gpm_latest_at;
  nvmlGpmMetricsGet_t request{};  // 8 KB: kept here rather than on the stack at every sample
  std::string gpm_off;            // why GPM is not read at all
  std::vector<std::string> metric_failures;  // "nvlink_tx_gbps (NVLINK_TOTAL_TX_PER_SEC: Not Supported)", once each
  std::vector<unsigned int> failed_metrics;
  std::size_t metrics_read = 0;         // metric values read, over all samples
  std::size_t sample_get_failures = 0;  // nvmlGpmSampleGet calls that failed after GPM was set up
  std::string last_sample_get_error;
  std::string gpm_unavailable;

  // Events.
  nvmlEventSet_t events = nullptr;
  std::optional<unsigned long long> ecc_corrected;
  std::optional<unsigned long long> ecc_uncorrected;
  std::string events_unavailable;

  std::string describe(const char* call, nvmlReturn_t status) const { return nvml.describe(call, status); }

  void set_up_gpm();
  void read_gpm(GpuSample& sample);
  void compute_gpm(int older, int newer, GpuSample& sample);
  void update_gpm_unavailable();
  void set_up_events();
  std::optional<unsigned long long> ecc_total(nvmlMemoryErrorType_t type, std::string* why_not) const;
};

void GpuSampler::State::set_up_gpm() {
  if (!nvml.nvmlGpmQueryDeviceSupport_ || !nvml.nvmlGpmSampleAlloc_ || !nvml.nvmlGpmSampleFree_ ||
      !nvml.nvmlGpmSampleGet_ || !nvml.nvmlGpmMetricsGet_) {
    gpm_off = "this driver's NVML has no GPM functions (nvmlGpmSampleGet and the rest came with the drivers for "
              "Hopper)";
    return;
  }
  nvmlGpmSupport_t support{};
  support.version = NVML_GPM_SUPPORT_VERSION;
  const nvmlReturn_t status = nvml.nvmlGpmQueryDeviceSupport_(device, &support);
  if (status != NVML_SUCCESS) {
    gpm_off = describe("nvmlGpmQueryDeviceSupport", status);
    return;
  }
  if (!support.isSupportedDevice) {
    gpm_off = "GPM is not supported on this GPU (nvmlGpmQueryDeviceSupport: GPM needs a Hopper or later GPU; on a "
              "virtual GPU, a MIG-backed profile with all of its instance's memory)";
    return;
  }
  for (nvmlGpmSample_t& buffer : gpm_samples) {
    const nvmlReturn_t allocated = nvml.nvmlGpmSampleAlloc_(&buffer);
    if (allocated != NVML_SUCCESS) {
      buffer = nullptr;
      gpm_off = describe("nvmlGpmSampleAlloc", allocated);
      return;
    }
  }
  // One sample now, to find a GPU that refuses them (permissions, a profiler holding the counters) before the job
  // starts; it is not the start of the first interval (the first call to sample() has no GPM fields).
  const nvmlReturn_t probe = nvml.nvmlGpmSampleGet_(device, gpm_samples[0]);
  if (probe != NVML_SUCCESS) {
    gpm_off = describe("nvmlGpmSampleGet", probe);
    return;
  }
  gpm = true;
}

void GpuSampler::State::read_gpm(GpuSample& sample) {
  if (!gpm) return;
  const Clock::time_point now = Clock::now();
  if (gpm_latest >= 0 && now - gpm_latest_at < kGpmMinimumGap) return;  // too soon: keep the older sample
  const int next = gpm_latest < 0 ? 0 : 1 - gpm_latest;
  const nvmlReturn_t status = nvml.nvmlGpmSampleGet_(device, gpm_samples[next]);
  if (status != NVML_SUCCESS) {
    ++sample_get_failures;
    last_sample_get_error = describe("nvmlGpmSampleGet", status);
    gpm_latest = -1;  // the next interval starts at the next good sample
    update_gpm_unavailable();
    return;
  }
  const Clock::time_point taken = Clock::now();
  if (gpm_latest >= 0) compute_gpm(gpm_latest, next, sample);
  gpm_latest = next;
  gpm_latest_at = taken;
}

void GpuSampler::State::compute_gpm(int older, int newer, GpuSample& sample) {
  request = nvmlGpmMetricsGet_t{};
  request.version = NVML_GPM_METRICS_GET_VERSION;
  request.numMetrics = static_cast<unsigned int>(kGpmFieldCount);
  request.sample1 = gpm_samples[older];
  request.sample2 = gpm_samples[newer];
  for (std::size_t i = 0; i < kGpmFieldCount; ++i) request.metrics[i].metricId = kGpmFields[i].metric;
  const nvmlReturn_t status = nvml.nvmlGpmMetricsGet_(&request);
  for (std::size_t i = 0; i < kGpmFieldCount; ++i) {
    const GpmField& field = kGpmFields[i];
    const nvmlReturn_t metric_status = status != NVML_SUCCESS ? status : request.metrics[i].nvmlReturn;
    const double value = request.metrics[i].value;
    if (metric_status == NVML_SUCCESS && std::isfinite(value)) {
      double x = std::max(0.0, value * field.scale);
      if (field.share) x = std::min(1.0, x);
      sample.*field.member = x;
      ++metrics_read;
      continue;
    }
    if (std::find(failed_metrics.begin(), failed_metrics.end(), field.metric) != failed_metrics.end()) continue;
    failed_metrics.push_back(field.metric);
    const std::string why = metric_status == NVML_SUCCESS
                                ? std::string(field.metric_name) + ": not a number"
                                : describe(status != NVML_SUCCESS ? "nvmlGpmMetricsGet" : field.metric_name,
                                           metric_status);
    metric_failures.push_back(std::string(field.field_name) + " (" + why + ")");
  }
  // Also after a good sample: "no GPM metric could be read" no longer holds once one was.
  if (!metric_failures.empty()) update_gpm_unavailable();
}

void GpuSampler::State::update_gpm_unavailable() {
  if (!gpm_off.empty()) {
    gpm_unavailable = gpm_off;
    return;
  }
  std::vector<std::string> parts;
  if (!metric_failures.empty()) {
    parts.push_back((metrics_read == 0 ? "no GPM metric could be read: " : "GPM fields absent where they failed: ") +
                    join(metric_failures, ", "));
  }
  if (sample_get_failures > 0) {
    parts.push_back("GPM samples failed " + std::to_string(sample_get_failures) + " times, leaving the GPM fields "
                    "of those intervals absent (last: " + last_sample_get_error + ")");
  }
  gpm_unavailable = join(parts, "; ");
}

std::optional<unsigned long long> GpuSampler::State::ecc_total(nvmlMemoryErrorType_t type, std::string* why_not) const {
  if (!nvml.nvmlDeviceGetTotalEccErrors_) {
    if (why_not) *why_not = "this driver's NVML lacks nvmlDeviceGetTotalEccErrors";
    return std::nullopt;
  }
  unsigned long long count = 0;
  const nvmlReturn_t status = nvml.nvmlDeviceGetTotalEccErrors_(device, type, NVML_VOLATILE_ECC, &count);
  if (status != NVML_SUCCESS) {
    if (why_not) *why_not = describe("nvmlDeviceGetTotalEccErrors", status);
    return std::nullopt;
  }
  return count;
}

void GpuSampler::State::set_up_events() {
  std::vector<std::string> parts;
  if (!nvml.nvmlEventSetCreate_ || !nvml.nvmlDeviceRegisterEvents_ || !nvml.nvmlEventSetWait_ ||
      !nvml.nvmlEventSetFree_) {
    parts.push_back("Xid events not watched: this driver's NVML lacks the event functions");
  } else {
    nvmlReturn_t status = nvml.nvmlEventSetCreate_(&events);
    if (status != NVML_SUCCESS) {
      events = nullptr;
      parts.push_back("Xid events not watched: " + describe("nvmlEventSetCreate", status));
    } else if ((status = nvml.nvmlDeviceRegisterEvents_(device, nvmlEventTypeXidCriticalError, events)) !=
               NVML_SUCCESS) {
      nvml.nvmlEventSetFree_(events);
      events = nullptr;
      parts.push_back("Xid events not watched: " + describe("nvmlDeviceRegisterEvents", status));
    }
  }
  std::string why_corrected, why_uncorrected;
  ecc_corrected = ecc_total(NVML_MEMORY_ERROR_TYPE_CORRECTED, &why_corrected);
  ecc_uncorrected = ecc_total(NVML_MEMORY_ERROR_TYPE_UNCORRECTED, &why_uncorrected);
  if (!ecc_corrected && !ecc_uncorrected) {
    parts.push_back("ECC errors not watched: " + why_corrected);
  } else if (!ecc_corrected || !ecc_uncorrected) {
    parts.push_back(std::string("ECC ") + (ecc_corrected ? "uncorrected" : "corrected") + " errors not watched: " +
                    (ecc_corrected ? why_uncorrected : why_corrected));
  }
  events_unavailable = join(parts, "; ");
}

GpuSampler::GpuSampler(const NvmlLibrary& nvml, int cuda_index, nvmlDevice_t device)
    : state_(std::make_unique<State>(nvml, cuda_index, device)) {
  state_->set_up_gpm();
  state_->update_gpm_unavailable();
  state_->set_up_events();
}

GpuSampler::~GpuSampler() {
  const NvmlLibrary& nvml = state_->nvml;
  for (nvmlGpmSample_t buffer : state_->gpm_samples) {
    if (buffer != nullptr && nvml.nvmlGpmSampleFree_) nvml.nvmlGpmSampleFree_(buffer);
  }
  if (state_->events != nullptr && nvml.nvmlEventSetFree_) nvml.nvmlEventSetFree_(state_->events);
}

GpuTimeline GpuSampler::describe() const {
  const NvmlLibrary& nvml = state_->nvml;
  const nvmlDevice_t device = state_->device;
  GpuTimeline gpu;
  gpu.index = state_->index;
  char name[NVML_DEVICE_NAME_V2_BUFFER_SIZE] = {};
  if (nvml.nvmlDeviceGetName_ && nvml.nvmlDeviceGetName_(device, name, sizeof name) == NVML_SUCCESS) gpu.name = name;
  unsigned int value = 0;
  // The most this GPU in this slot can train at ("possible with this device and system configuration"), which is
  // what the current link is held against.
  if (nvml.nvmlDeviceGetMaxPcieLinkGeneration_ &&
      nvml.nvmlDeviceGetMaxPcieLinkGeneration_(device, &value) == NVML_SUCCESS) {
    gpu.pcie_max_gen = static_cast<int>(value);
  }
  if (nvml.nvmlDeviceGetMaxPcieLinkWidth_ && nvml.nvmlDeviceGetMaxPcieLinkWidth_(device, &value) == NVML_SUCCESS) {
    gpu.pcie_max_width = static_cast<int>(value);
  }
  if (nvml.nvmlDeviceGetTemperatureThreshold_ &&
      nvml.nvmlDeviceGetTemperatureThreshold_(device, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN, &value) == NVML_SUCCESS) {
    gpu.slowdown_temperature_c = value;
  }
  gpu.events_unwatched = state_->events_unavailable;
  if (nvml.nvmlDeviceGetEnforcedPowerLimit_ && nvml.nvmlDeviceGetEnforcedPowerLimit_(device, &value) == NVML_SUCCESS) {
    gpu.power_limit_w = value / 1000.0;
  }
  if (nvml.nvmlDeviceGetPowerManagementDefaultLimit_ &&
      nvml.nvmlDeviceGetPowerManagementDefaultLimit_(device, &value) == NVML_SUCCESS) {
    gpu.default_power_limit_w = value / 1000.0;
  }
  unsigned int memory_clock_mhz = 0, bus_width_bits = 0;
  if (nvml.nvmlDeviceGetMaxClockInfo_ && nvml.nvmlDeviceGetMemoryBusWidth_ &&
      nvml.nvmlDeviceGetMaxClockInfo_(device, NVML_CLOCK_MEM, &memory_clock_mhz) == NVML_SUCCESS &&
      nvml.nvmlDeviceGetMemoryBusWidth_(device, &bus_width_bits) == NVML_SUCCESS) {
    gpu.dram_peak_gbps = dram_peak_gbps(memory_clock_mhz, bus_width_bits);
  }
  return gpu;
}

GpuSample GpuSampler::sample(double t_s) {
  const NvmlLibrary& nvml = state_->nvml;
  const nvmlDevice_t device = state_->device;
  GpuSample s;
  s.t_s = t_s;
  nvmlUtilization_t utilization{};
  if (nvml.nvmlDeviceGetUtilizationRates_ &&
      nvml.nvmlDeviceGetUtilizationRates_(device, &utilization) == NVML_SUCCESS) {
    s.utilization = std::min(1.0, utilization.gpu / 100.0);
  }
  // nvmlMemory_v2_t leaves the driver's reserved memory out of "used", as nvidia-smi shows it; v1 counts it in.
  nvmlMemory_v2_t memory{};
  memory.version = nvmlMemory_v2;
  nvmlMemory_t memory_v1{};
  if (nvml.nvmlDeviceGetMemoryInfo_v2_ && nvml.nvmlDeviceGetMemoryInfo_v2_(device, &memory) == NVML_SUCCESS) {
    s.memory_used_gib = memory.used / kBytesPerGib;
    s.memory_total_gib = memory.total / kBytesPerGib;
  } else if (nvml.nvmlDeviceGetMemoryInfo_ && nvml.nvmlDeviceGetMemoryInfo_(device, &memory_v1) == NVML_SUCCESS) {
    s.memory_used_gib = memory_v1.used / kBytesPerGib;
    s.memory_total_gib = memory_v1.total / kBytesPerGib;
  }
  // SM clock, temperature, power and clock-event reasons as the runner's telemetry reads them (-1: unread).
  const TelemetrySample plain = read_telemetry(nvml, device);
  if (plain.power_w >= 0) s.power_w = plain.power_w;
  if (plain.sm_clock_mhz >= 0) s.sm_clock_mhz = plain.sm_clock_mhz;
  if (plain.temperature_c >= 0) s.temperature_c = plain.temperature_c;
  if (plain.clock_event_reasons_read) s.clock_event_reasons = plain.clock_event_reasons;
  unsigned int value = 0;
  if (nvml.nvmlDeviceGetCurrPcieLinkGeneration_ &&
      nvml.nvmlDeviceGetCurrPcieLinkGeneration_(device, &value) == NVML_SUCCESS) {
    s.pcie_gen = static_cast<int>(value);
  }
  if (nvml.nvmlDeviceGetCurrPcieLinkWidth_ && nvml.nvmlDeviceGetCurrPcieLinkWidth_(device, &value) == NVML_SUCCESS) {
    s.pcie_width = static_cast<int>(value);
  }
  state_->read_gpm(s);
  return s;
}

std::vector<WatchEvent> GpuSampler::take_events(double t_s) {
  State& st = *state_;
  std::vector<WatchEvent> out;
  if (st.events != nullptr) {
    nvmlEventData_t data{};
    // Without waiting (timeout 0 ms); a bounded number, should the driver report without end.
    for (int n = 0; n < 256 && st.nvml.nvmlEventSetWait_(st.events, &data, 0) == NVML_SUCCESS; ++n) {
      if ((data.eventType & nvmlEventTypeXidCriticalError) == 0) continue;
      WatchEvent event;
      event.t_s = t_s;
      event.gpu = st.index;
      event.kind = "xid";
      event.code = static_cast<long long>(data.eventData);
      const XidKind* known = find_xid_kind(static_cast<int>(data.eventData));
      event.detail = known != nullptr ? known->name : "an Xid gpubench's catalogue does not name";
      out.push_back(std::move(event));
      data = nvmlEventData_t{};
    }
  }
  const auto growth = [&](nvmlMemoryErrorType_t type, std::optional<unsigned long long>& last, const char* kind,
                          const char* what) {
    if (!last) return;  // not watched
    const std::optional<unsigned long long> now = st.ecc_total(type, nullptr);
    if (!now) return;  // unread this time: compare with the last count next time
    if (*now > *last) {
      WatchEvent event;
      event.t_s = t_s;
      event.gpu = st.index;
      event.kind = kind;
      event.code = static_cast<long long>(*now - *last);
      event.detail = std::string("volatile ") + what + " ECC errors rose from " + std::to_string(*last) + " to " +
                     std::to_string(*now);
      out.push_back(std::move(event));
    }
    last = now;  // also after a reset of the volatile counters (a driver reload), which only lowers them
  };
  growth(NVML_MEMORY_ERROR_TYPE_CORRECTED, st.ecc_corrected, "ecc_corrected", "corrected");
  growth(NVML_MEMORY_ERROR_TYPE_UNCORRECTED, st.ecc_uncorrected, "ecc_uncorrected", "uncorrected");
  return out;
}

const std::string& GpuSampler::gpm_unavailable() const { return state_->gpm_unavailable; }

const std::string& GpuSampler::events_unavailable() const { return state_->events_unavailable; }

}  // namespace gpubench
