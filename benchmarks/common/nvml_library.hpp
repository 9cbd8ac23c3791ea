#pragma once
// NVML, loaded at run time with dlopen so that every gpubench binary starts on a machine with no driver.
// The function pointers carry the real nvml.h types; a symbol the installed driver lacks stays null.
#include <nvml.h>

#include <memory>
#include <string>

namespace gpubench {

class NvmlLibrary {
 public:
  // Loads libnvidia-ml.so.1 and calls nvmlInit. Returns null and sets *why_not when either fails.
  static std::unique_ptr<NvmlLibrary> load(std::string* why_not);
  ~NvmlLibrary();
  NvmlLibrary(const NvmlLibrary&) = delete;
  NvmlLibrary& operator=(const NvmlLibrary&) = delete;

  // "nvmlDeviceGetName: Not Supported" style text for a failed call.
  std::string describe(const char* call, nvmlReturn_t status) const;

  // The NVML device for a CUDA device, matched by PCI bus id ("0000:3b:00.0"). Null when not found.
  nvmlDevice_t device_by_pci_bus_id(const std::string& bus_id) const;
  // The same, from a CUDA device index (CUDA and NVML may number GPUs differently).
  nvmlDevice_t device_for_cuda_index(int cuda_index) const;

#define GPUBENCH_NVML_FUNCTIONS(X)                  \
  X(nvmlInit)                                       \
  X(nvmlShutdown)                                   \
  X(nvmlErrorString)                                \
  X(nvmlSystemGetDriverVersion)                     \
  X(nvmlSystemGetNVMLVersion)                       \
  X(nvmlSystemGetCudaDriverVersion)                 \
  X(nvmlDeviceGetCount)                             \
  X(nvmlDeviceGetHandleByIndex)                     \
  X(nvmlDeviceGetHandleByPciBusId)                  \
  X(nvmlDeviceGetIndex)                             \
  X(nvmlDeviceGetName)                              \
  X(nvmlDeviceGetUUID)                              \
  X(nvmlDeviceGetSerial)                            \
  X(nvmlDeviceGetVbiosVersion)                      \
  X(nvmlDeviceGetPciInfo)                           \
  X(nvmlDeviceGetCurrPcieLinkGeneration)            \
  X(nvmlDeviceGetMaxPcieLinkGeneration)             \
  X(nvmlDeviceGetCurrPcieLinkWidth)                 \
  X(nvmlDeviceGetMaxPcieLinkWidth)                  \
  X(nvmlDeviceGetPcieReplayCounter)                 \
  X(nvmlDeviceGetClockInfo)                         \
  X(nvmlDeviceGetMaxClockInfo)                      \
  X(nvmlDeviceGetPowerManagementLimit)              \
  X(nvmlDeviceGetEnforcedPowerLimit)                \
  X(nvmlDeviceGetPowerUsage)                        \
  X(nvmlDeviceGetTemperature)                       \
  X(nvmlDeviceGetTemperatureThreshold)              \
  X(nvmlDeviceGetEccMode)                           \
  X(nvmlDeviceGetPersistenceMode)                   \
  X(nvmlDeviceGetCurrentClocksEventReasons)         \
  X(nvmlDeviceGetTopologyCommonAncestor)            \
  X(nvmlDeviceGetNvLinkState)                       \
  X(nvmlDeviceGetNvLinkRemotePciInfo)               \
  X(nvmlDeviceGetNvLinkErrorCounter)                \
  X(nvmlDeviceGetFieldValues)                       \
  X(nvmlDeviceGetTotalEccErrors)                    \
  X(nvmlDeviceGetRetiredPages)                      \
  X(nvmlDeviceGetRetiredPagesPendingStatus)         \
  X(nvmlDeviceGetRemappedRows)                      \
  X(nvmlDeviceGetPowerManagementDefaultLimit)       \
  X(nvmlDeviceGetComputeRunningProcesses)           \
  X(nvmlDeviceGetGraphicsRunningProcesses)          \
  X(nvmlSystemGetProcessName)                      \
  X(nvmlEventSetCreate)                             \
  X(nvmlDeviceRegisterEvents)                       \
  X(nvmlEventSetWait)                               \
  X(nvmlEventSetFree)                              \
  X(nvmlDeviceGetUtilizationRates)                  \
  X(nvmlDeviceGetMemoryInfo)                        \
  X(nvmlDeviceGetMemoryInfo_v2)                     \
  X(nvmlDeviceGetMemoryBusWidth)                    \
  X(nvmlGpmQueryDeviceSupport)                      \
  X(nvmlGpmSampleAlloc)                             \
  X(nvmlGpmSampleFree)                              \
  X(nvmlGpmSampleGet)                               \
  X(nvmlGpmMetricsGet)

// nvmlDeviceGetTemperature is deprecated in CUDA 13's nvml.h but is the call every driver since R450 has.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#define GPUBENCH_NVML_POINTER(name) decltype(&::name) name##_ = nullptr;
  GPUBENCH_NVML_FUNCTIONS(GPUBENCH_NVML_POINTER)
#undef GPUBENCH_NVML_POINTER
#pragma GCC diagnostic pop

 private:
  explicit NvmlLibrary(void* handle) : handle_(handle) {}
  void* handle_;
};

}  // namespace gpubench
