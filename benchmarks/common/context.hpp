#pragma once
// What every benchmark needs from main: which GPUs, which suite, NVML for clocks (null without a driver), and the
// resources the process's benchmarks share (process_resources.hpp).
#include <nvml.h>

#include <string>
#include <vector>

namespace gpubench {

class NvmlLibrary;
class ProcessResources;

enum class Suite { Quick, Full };

struct BenchmarkDevice {
  int index = 0;                 // CUDA device index
  nvmlDevice_t nvml = nullptr;   // matched by PCI bus id; null when NVML is unavailable
};

struct BenchmarkContext {
  std::vector<BenchmarkDevice> devices;
  Suite suite = Suite::Full;
  const NvmlLibrary* nvml = nullptr;
  std::string no_gpu_reason;  // set when CUDA sees no usable GPU: every benchmark skips with it
  ProcessResources* resources = nullptr;  // owned by main; benchmark bodies may use it, registration need not
};

}  // namespace gpubench
