#include "harness/environment/gpu_processes.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "benchmarks/common/nvml_library.hpp"

namespace gpubench {
namespace {

template <typename ListFunction>
std::optional<std::vector<nvmlProcessInfo_t>> list_processes(ListFunction* list, nvmlDevice_t device,
                                                             const NvmlLibrary& nvml, const char* call,
                                                             std::string& error) {
  if (list == nullptr) {
    error = std::string(call) + ": not in this driver's NVML";
    return std::nullopt;
  }
  std::vector<nvmlProcessInfo_t> infos(16);
  for (int attempt = 0; attempt < 4; ++attempt) {
    unsigned count = static_cast<unsigned>(infos.size());
    const nvmlReturn_t status = list(device, &count, infos.data());
    if (status == NVML_ERROR_INSUFFICIENT_SIZE) {
      infos.resize(count + 16);  // processes may start between the calls
      continue;
    }
    if (status != NVML_SUCCESS) {
      error = nvml.describe(call, status);
      return std::nullopt;
    }
    infos.resize(std::min<std::size_t>(count, infos.size()));
    return infos;
  }
  error = std::string(call) + ": the list kept growing";
  return std::nullopt;
}

// The parent of `pid` from /proc/PID/stat ("pid (comm) state ppid ..."; comm may hold spaces and parentheses), 0
// when /proc does not show it.
unsigned parent_of(unsigned pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 1));
  std::string state;
  long long parent = 0;
  if (!(fields >> state >> parent) || parent < 0) return 0;
  return static_cast<unsigned>(parent);
}

}  // namespace

GpuProcessReading read_gpu_processes(const NvmlLibrary& nvml, nvmlDevice_t device) {
  GpuProcessReading reading;
  std::string compute_error;
  std::string graphics_error;
  const auto compute = list_processes(nvml.nvmlDeviceGetComputeRunningProcesses_, device, nvml,
                                      "nvmlDeviceGetComputeRunningProcesses", compute_error);
  const auto graphics = list_processes(nvml.nvmlDeviceGetGraphicsRunningProcesses_, device, nvml,
                                       "nvmlDeviceGetGraphicsRunningProcesses", graphics_error);
  if (!compute && !graphics) {
    reading.error = compute_error + "; " + graphics_error;
    return reading;
  }
  std::vector<GpuProcess> processes;
  const auto add = [&](const std::vector<nvmlProcessInfo_t>& infos, const char* kind) {
    for (const nvmlProcessInfo_t& info : infos) {
      auto known = std::find_if(processes.begin(), processes.end(), [&](const GpuProcess& p) { return p.pid == info.pid; });
      if (known == processes.end()) {
        GpuProcess process;
        process.pid = info.pid;
        process.kind = kind;
        char name[256] = {};
        if (nvml.nvmlSystemGetProcessName_ && nvml.nvmlSystemGetProcessName_(info.pid, name, sizeof name) == NVML_SUCCESS) {
          process.name = name;
        }
        processes.push_back(process);
        known = processes.end() - 1;
      } else if (known->kind != kind) {
        known->kind = "compute+graphics";
      }
      if (info.usedGpuMemory != static_cast<unsigned long long>(NVML_VALUE_NOT_AVAILABLE)) {
        known->used_memory_bytes = std::max<std::uint64_t>(known->used_memory_bytes.value_or(0), info.usedGpuMemory);
      }
    }
  };
  if (compute) add(*compute, "compute");
  if (graphics) add(*graphics, "graphics");
  reading.processes = std::move(processes);
  return reading;
}

bool started_by(unsigned pid, unsigned self) {
  // A chain of parents ends at 1 (init) or 0 (not shown); a bound guards against a /proc that changes under us.
  for (int depth = 0; pid > 1 && depth < 64; ++depth) {
    if (pid == self) return true;
    pid = parent_of(pid);
  }
  return pid == self;
}

}  // namespace gpubench
