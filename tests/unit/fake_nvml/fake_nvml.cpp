// The fake libnvidia-ml.so.1 of fake_nvml.hpp: the functions GpuSampler and NvmlLibrary::load call, under the
// names nvml.h gives them (nvmlInit is nvmlInit_v2 there), answering from FakeNvmlControl.
#include "tests/unit/fake_nvml/fake_nvml.hpp"

#include <cstdio>
#include <cstring>

struct nvmlDevice_st {
  int unused;
};
struct nvmlEventSet_st {
  bool registered = false;
};
struct nvmlGpmSample_st {
  int serial = -1;
};

namespace {

FakeNvmlControl control;
nvmlDevice_st the_device;

// The failure set for `call`, or success.
nvmlReturn_t status(const char* call) {
  const auto it = control.failing.find(call);
  return it == control.failing.end() ? NVML_SUCCESS : it->second;
}

// NVML's two-call protocol: the count when the caller's room is short, else the list.
nvmlReturn_t list_processes(const std::vector<nvmlProcessInfo_t>& processes, unsigned int* count, nvmlProcessInfo_t* infos) {
  if (*count < processes.size()) {
    *count = static_cast<unsigned int>(processes.size());
    return NVML_ERROR_INSUFFICIENT_SIZE;
  }
  *count = static_cast<unsigned int>(processes.size());
  for (std::size_t i = 0; i < processes.size(); ++i) infos[i] = processes[i];
  return NVML_SUCCESS;
}

}  // namespace

extern "C" {

FakeNvmlControl* fake_nvml_control() { return &control; }

nvmlReturn_t nvmlInit(void) { return NVML_SUCCESS; }
nvmlReturn_t nvmlShutdown(void) { return NVML_SUCCESS; }

const char* nvmlErrorString(nvmlReturn_t result) {
  switch (result) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
    case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
    case NVML_ERROR_TIMEOUT: return "Timeout";
    default: return "Unknown Error";
  }
}

nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t* device) {
  if (index != 0) return NVML_ERROR_INVALID_ARGUMENT;
  *device = &the_device;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t, char* name, unsigned int length) {
  if (const nvmlReturn_t s = status("nvmlDeviceGetName")) return s;
  std::strncpy(name, control.name.c_str(), length - 1);
  return NVML_SUCCESS;
}

#define GPUBENCH_FAKE_UINT(function, member)                    \
  nvmlReturn_t function(nvmlDevice_t, unsigned int* value) {    \
    if (const nvmlReturn_t s = status(#function)) return s;     \
    *value = control.member;                                    \
    return NVML_SUCCESS;                                        \
  }
GPUBENCH_FAKE_UINT(nvmlDeviceGetMaxPcieLinkGeneration, pcie_max_gen)
GPUBENCH_FAKE_UINT(nvmlDeviceGetMaxPcieLinkWidth, pcie_max_width)
GPUBENCH_FAKE_UINT(nvmlDeviceGetCurrPcieLinkGeneration, pcie_gen)
GPUBENCH_FAKE_UINT(nvmlDeviceGetCurrPcieLinkWidth, pcie_width)
GPUBENCH_FAKE_UINT(nvmlDeviceGetPowerUsage, power_mw)
GPUBENCH_FAKE_UINT(nvmlDeviceGetMemoryBusWidth, bus_width_bits)
GPUBENCH_FAKE_UINT(nvmlDeviceGetEnforcedPowerLimit, power_limit_mw)
GPUBENCH_FAKE_UINT(nvmlDeviceGetPowerManagementDefaultLimit, default_power_limit_mw)
#undef GPUBENCH_FAKE_UINT

nvmlReturn_t nvmlDeviceGetTemperatureThreshold(nvmlDevice_t, nvmlTemperatureThresholds_t type, unsigned int* temp) {
  if (const nvmlReturn_t s = status("nvmlDeviceGetTemperatureThreshold")) return s;
  if (type != NVML_TEMPERATURE_THRESHOLD_SLOWDOWN) return NVML_ERROR_NOT_SUPPORTED;
  *temp = control.slowdown_c;
  return NVML_SUCCESS;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t, nvmlTemperatureSensors_t, unsigned int* temp) {
  if (const nvmlReturn_t s = status("nvmlDeviceGetTemperature")) return s;
  *temp = control.temperature_c;
  return NVML_SUCCESS;
}
#pragma GCC diagnostic pop

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t, nvmlClockType_t type, unsigned int* clock) {
  if (const nvmlReturn_t s = status("nvmlDeviceGetClockInfo")) return s;
  *clock = type == NVML_CLOCK_SM ? control.sm_clock_mhz : control.max_memory_clock_mhz;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t, nvmlClockType_t type, unsigned int* clock) {
  if (const nvmlReturn_t s = status("nvmlDeviceGetMaxClockInfo")) return s;
  if (type != NVML_CLOCK_MEM) return NVML_ERROR_NOT_SUPPORTED;
  *clock = control.max_memory_clock_mhz;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t, unsigned long long* reasons) {
  if (const nvmlReturn_t s = status("nvmlDeviceGetCurrentClocksEventReasons")) return s;
  *reasons = control.clock_event_reasons;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t, nvmlUtilization_t* utilization) {
  if (const nvmlReturn_t s = status("nvmlDeviceGetUtilizationRates")) return s;
  utilization->gpu = control.utilization_percent;
  utilization->memory = 0;
  return NVML_SUCCESS;
}

// v1 counts the reserved memory as used; v2 does not.
nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t, nvmlMemory_t* memory) {
  if (const nvmlReturn_t s = status("nvmlDeviceGetMemoryInfo")) return s;
  memory->total = control.memory_total;
  memory->used = control.memory_used + control.memory_reserved;
  memory->free = control.memory_total - memory->used;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t, nvmlMemory_v2_t* memory) {
  if (const nvmlReturn_t s = status("nvmlDeviceGetMemoryInfo_v2")) return s;
  if (memory->version != nvmlMemory_v2) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  memory->total = control.memory_total;
  memory->reserved = control.memory_reserved;
  memory->used = control.memory_used;
  memory->free = control.memory_total - control.memory_used - control.memory_reserved;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlGpmQueryDeviceSupport(nvmlDevice_t, nvmlGpmSupport_t* support) {
  if (const nvmlReturn_t s = status("nvmlGpmQueryDeviceSupport")) return s;
  if (support->version != NVML_GPM_SUPPORT_VERSION) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  support->isSupportedDevice = control.gpm_supported;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlGpmSampleAlloc(nvmlGpmSample_t* sample) {
  if (const nvmlReturn_t s = status("nvmlGpmSampleAlloc")) return s;
  *sample = new nvmlGpmSample_st;
  ++control.samples_allocated;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlGpmSampleFree(nvmlGpmSample_t sample) {
  delete sample;
  --control.samples_allocated;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlGpmSampleGet(nvmlDevice_t, nvmlGpmSample_t sample) {
  if (const nvmlReturn_t s = status("nvmlGpmSampleGet")) return s;
  sample->serial = control.next_serial++;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlGpmMetricsGet(nvmlGpmMetricsGet_t* request) {
  if (const nvmlReturn_t s = status("nvmlGpmMetricsGet")) return s;
  if (request->version != NVML_GPM_METRICS_GET_VERSION) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (request->sample1 == request->sample2 || request->sample1->serial >= request->sample2->serial) {
    return NVML_ERROR_INVALID_ARGUMENT;  // the older sample must come first
  }
  control.metric_intervals.emplace_back(request->sample1->serial, request->sample2->serial);
  for (unsigned int i = 0; i < request->numMetrics; ++i) {
    nvmlGpmMetric_t& metric = request->metrics[i];
    const auto failure = control.metric_failures.find(metric.metricId);
    metric.nvmlReturn = failure != control.metric_failures.end() ? failure->second : NVML_SUCCESS;
    const auto value = control.metric_values.find(metric.metricId);
    metric.value = value != control.metric_values.end() ? value->second : 0.0;
  }
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t* set) {
  if (const nvmlReturn_t s = status("nvmlEventSetCreate")) return s;
  *set = new nvmlEventSet_st;
  ++control.event_sets;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t, unsigned long long types, nvmlEventSet_t set) {
  if (const nvmlReturn_t s = status("nvmlDeviceRegisterEvents")) return s;
  if ((types & nvmlEventTypeXidCriticalError) == 0) return NVML_ERROR_INVALID_ARGUMENT;
  set->registered = true;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlEventSetWait(nvmlEventSet_t set, nvmlEventData_t* data, unsigned int timeout_ms) {
  if (timeout_ms != 0) return NVML_ERROR_INVALID_ARGUMENT;  // watch must never block in here
  if (!set->registered || control.pending_xids.empty()) return NVML_ERROR_TIMEOUT;
  std::memset(data, 0, sizeof *data);
  data->device = &the_device;
  data->eventType = nvmlEventTypeXidCriticalError;
  data->eventData = control.pending_xids.front();
  control.pending_xids.pop_front();
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set) {
  delete set;
  --control.event_sets;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t, nvmlMemoryErrorType_t type, nvmlEccCounterType_t counter,
                                         unsigned long long* count) {
  if (const nvmlReturn_t s = status("nvmlDeviceGetTotalEccErrors")) return s;
  if (counter != NVML_VOLATILE_ECC) return NVML_ERROR_INVALID_ARGUMENT;
  *count = type == NVML_MEMORY_ERROR_TYPE_CORRECTED ? control.ecc_corrected : control.ecc_uncorrected;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t, unsigned int* count, nvmlProcessInfo_t* infos) {
  if (const nvmlReturn_t s = status("nvmlDeviceGetComputeRunningProcesses")) return s;
  return list_processes(control.compute_processes, count, infos);
}

nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses(nvmlDevice_t, unsigned int* count, nvmlProcessInfo_t* infos) {
  if (const nvmlReturn_t s = status("nvmlDeviceGetGraphicsRunningProcesses")) return s;
  return list_processes(control.graphics_processes, count, infos);
}

nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char* name, unsigned int length) {
  const auto found = control.process_names.find(pid);
  if (found == control.process_names.end()) return NVML_ERROR_NOT_FOUND;
  std::snprintf(name, length, "%s", found->second.c_str());
  return NVML_SUCCESS;
}

}  // extern "C"
