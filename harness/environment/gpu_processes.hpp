#pragma once
// The processes NVML lists on a GPU (its running compute and graphics processes) with pid, name and memory, and which
// of them are this gpubench's own: what `run` records beside each family so that a slowdown can name another process
// that used the GPU, and what doctor lists as a GPU's other users. Compiles without a GPU; NVML is loaded at run time.
#include <nvml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpubench {

class NvmlLibrary;

struct GpuProcess {
  unsigned pid = 0;
  std::optional<std::uint64_t> used_memory_bytes;  // absent where NVML cannot say (as under Windows' WDDM, or MIG)
  std::string name;  // empty when NVML cannot name it
  std::string kind;  // "compute", "graphics" or "compute+graphics"
};

struct GpuProcessReading {
  std::optional<std::vector<GpuProcess>> processes;  // absent when neither list could be read
  std::string error;                                 // why not, naming the NVML call
};

// Every process NVML lists on `device`, compute and graphics merged by pid.
GpuProcessReading read_gpu_processes(const NvmlLibrary& nvml, nvmlDevice_t device);

// Whether process `pid` is `self` or one it started (its chain of parents in /proc reaches `self`): gpubench and the
// gpubench-micro children it runs. False for a pid /proc does not show.
bool started_by(unsigned pid, unsigned self);

}  // namespace gpubench
