#include "benchmarks/common/nvml_library.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

namespace gpubench {
namespace {

// nvml.h maps plain names to versioned symbols (nvmlInit -> nvmlInit_v2); expanding the macro before
// stringifying looks up the symbol the header's types describe.
#define GPUBENCH_EXPANDED_NAME(name) GPUBENCH_STRINGIFY(name)
#define GPUBENCH_STRINGIFY(name) #name

}  // namespace

std::unique_ptr<NvmlLibrary> NvmlLibrary::load(std::string* why_not) {
  void* handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = dlerror();
    if (why_not) *why_not = std::string("NVML unavailable: ") + (error ? error : "libnvidia-ml.so.1 not found");
    return nullptr;
  }
  std::unique_ptr<NvmlLibrary> nvml(new NvmlLibrary(handle));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#define GPUBENCH_NVML_RESOLVE(name) \
  nvml->name##_ = reinterpret_cast<decltype(&::name)>(dlsym(handle, GPUBENCH_EXPANDED_NAME(name)));
  GPUBENCH_NVML_FUNCTIONS(GPUBENCH_NVML_RESOLVE)
#undef GPUBENCH_NVML_RESOLVE
#pragma GCC diagnostic pop
  if (nvml->nvmlInit_ == nullptr || nvml->nvmlShutdown_ == nullptr) {
    if (why_not) *why_not = "NVML unavailable: libnvidia-ml.so.1 lacks nvmlInit_v2";
    return nullptr;
  }
  const nvmlReturn_t status = nvml->nvmlInit_();
  if (status != NVML_SUCCESS) {
    if (why_not) *why_not = "NVML unavailable: " + nvml->describe("nvmlInit", status);
    nvml->nvmlShutdown_ = nullptr;  // nothing to shut down
    return nullptr;
  }
  return nvml;
}

NvmlLibrary::~NvmlLibrary() {
  if (nvmlShutdown_ != nullptr) nvmlShutdown_();
  dlclose(handle_);
}

std::string NvmlLibrary::describe(const char* call, nvmlReturn_t status) const {
  const char* text = nvmlErrorString_ ? nvmlErrorString_(status) : nullptr;
  return std::string(call) + ": " + (text ? text : "error " + std::to_string(static_cast<int>(status)));
}

nvmlDevice_t NvmlLibrary::device_by_pci_bus_id(const std::string& bus_id) const {
  nvmlDevice_t device = nullptr;
  if (nvmlDeviceGetHandleByPciBusId_ == nullptr ||
      nvmlDeviceGetHandleByPciBusId_(bus_id.c_str(), &device) != NVML_SUCCESS) {
    return nullptr;
  }
  return device;
}

nvmlDevice_t NvmlLibrary::device_for_cuda_index(int cuda_index) const {
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, cuda_index) != cudaSuccess) return nullptr;
  return device_by_pci_bus_id(bus_id);
}

}  // namespace gpubench
