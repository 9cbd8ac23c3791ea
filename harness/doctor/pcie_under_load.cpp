#include "harness/doctor/pcie_under_load.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "benchmarks/common/nvml_library.hpp"

namespace gpubench {
namespace {

constexpr std::size_t kCopyBytes = std::size_t{64} << 20;
constexpr auto kLoadTime = std::chrono::milliseconds(250);
constexpr auto kPollInterval = std::chrono::milliseconds(5);

// Doctor's own pinned buffer, device buffer and stream on one GPU, released on every path out.
class CopyLoad {
 public:
  explicit CopyLoad(int cuda_index) {
    succeeded("cudaSetDevice", cudaSetDevice(cuda_index)) && succeeded("cudaMallocHost", cudaMallocHost(&host_, kCopyBytes)) &&
        succeeded("cudaMalloc", cudaMalloc(&device_, kCopyBytes)) &&
        succeeded("cudaStreamCreate", cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~CopyLoad() {
    if (stream_ != nullptr) {
      cudaStreamSynchronize(stream_);
      cudaStreamDestroy(stream_);
    }
    if (device_ != nullptr) cudaFree(device_);
    if (host_ != nullptr) cudaFreeHost(host_);
  }
  CopyLoad(const CopyLoad&) = delete;
  CopyLoad& operator=(const CopyLoad&) = delete;

  const std::string& error() const { return error_; }

  // Keeps a few copies queued so that the link stays busy between polls.
  bool keep_busy() {
    if (cudaStreamQuery(stream_) == cudaErrorNotReady) return true;
    for (int i = 0; i < 4; ++i) {
      if (!succeeded("cudaMemcpyAsync", cudaMemcpyAsync(device_, host_, kCopyBytes, cudaMemcpyHostToDevice, stream_))) return false;
    }
    return true;
  }

 private:
  void* host_ = nullptr;
  void* device_ = nullptr;
  cudaStream_t stream_ = nullptr;
  std::string error_;

  bool succeeded(const char* call, cudaError_t status) {
    if (status == cudaSuccess) return true;
    error_ = std::string(call) + ": " + cudaGetErrorString(status);
    return false;
  }
};

}  // namespace

Reading<PcieLink> read_pcie_link_under_load(const NvmlLibrary& nvml, nvmlDevice_t device, int cuda_index, const PcieLink& at_rest) {
  if (nvml.nvmlDeviceGetCurrPcieLinkGeneration_ == nullptr || nvml.nvmlDeviceGetCurrPcieLinkWidth_ == nullptr) {
    return {std::nullopt, "nvmlDeviceGetCurrPcieLinkGeneration: not in this driver's NVML"};
  }
  CopyLoad load(cuda_index);
  if (!load.error().empty()) return {std::nullopt, load.error()};
  PcieLink seen = at_rest;
  seen.current_generation = 0;
  seen.current_width = 0;
  std::string read_error;
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < kLoadTime) {
    if (!load.keep_busy()) return {std::nullopt, load.error()};
    std::this_thread::sleep_for(kPollInterval);
    unsigned generation = 0;
    unsigned width = 0;
    const nvmlReturn_t g = nvml.nvmlDeviceGetCurrPcieLinkGeneration_(device, &generation);
    const nvmlReturn_t w = nvml.nvmlDeviceGetCurrPcieLinkWidth_(device, &width);
    if (g != NVML_SUCCESS || w != NVML_SUCCESS) {
      read_error = nvml.describe(g != NVML_SUCCESS ? "nvmlDeviceGetCurrPcieLinkGeneration" : "nvmlDeviceGetCurrPcieLinkWidth",
                                 g != NVML_SUCCESS ? g : w);
      continue;
    }
    seen.current_generation = std::max(seen.current_generation, generation);
    seen.current_width = std::max(seen.current_width, width);
  }
  if (seen.current_generation == 0) return {std::nullopt, read_error.empty() ? "no reading during the copies" : read_error};
  return {seen, ""};
}

}  // namespace gpubench
