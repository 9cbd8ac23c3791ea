#pragma once
// Where a GPU sits in the host (its NUMA node and nearest CPUs, from sysfs) and binding the calling thread
// to those CPUs for a scope. sysfs needs neither NVML nor libnuma, and gives the node as well as the CPUs.
#include <cuda_runtime.h>
#include <sched.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/common/cpu_list.hpp"
#include "benchmarks/common/cuda_check.hpp"

namespace gpubench {

struct GpuLocality {
  std::string pci_bus_id;  // as sysfs spells it: 0000:3b:00.0
  int numa_node = -1;      // -1: the platform reports none (common in VMs)
  std::vector<int> cpus;   // the CPUs nearest the GPU; empty when the node is unknown
};

// Reads /sys/bus/pci/devices/<bus id>/{numa_node,local_cpulist} for a CUDA device.
inline GpuLocality gpu_locality(int cuda_device) {
  char bus_id[32] = {};
  GPUBENCH_CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, cuda_device));
  GpuLocality locality;
  locality.pci_bus_id = bus_id;
  for (char& c : locality.pci_bus_id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string dir = "/sys/bus/pci/devices/" + locality.pci_bus_id + "/";
  std::string line;
  if (std::ifstream node_file(dir + "numa_node"); std::getline(node_file, line)) {
    try {
      locality.numa_node = std::stoi(line);
    } catch (const std::exception&) {
      locality.numa_node = -1;
    }
  }
  if (locality.numa_node < 0) return locality;  // local_cpulist then lists every CPU: nothing to prefer
  if (std::ifstream cpus_file(dir + "local_cpulist"); std::getline(cpus_file, line)) {
    try {
      locality.cpus = parse_cpu_list(line);
    } catch (const std::invalid_argument&) {
      locality.cpus.clear();
    }
  }
  return locality;
}

// Binds the calling thread to those of `cpus` it is allowed to run on (cgroups and taskset may forbid some),
// and restores the thread's previous CPU mask when it goes out of scope. Binding is best effort: where it
// cannot be done, the thread stays as it was and note() says why.
class ScopedCpuBinding {
 public:
  explicit ScopedCpuBinding(const std::vector<int>& cpus) {
    if (cpus.empty()) {
      note_ = "unbound (GPU's CPUs unknown)";
      return;
    }
    // Large enough for every CPU the kernel knows; sched_getaffinity fails with EINVAL when the set is smaller.
    for (set_cpus_ = std::max(CPU_SETSIZE, cpus.back() + 1);; set_cpus_ *= 2) {
      saved_ = allocate(set_cpus_);
      if (sched_getaffinity(0, CPU_ALLOC_SIZE(set_cpus_), saved_.get()) == 0) break;
      if (errno != EINVAL || set_cpus_ > (1 << 20)) {
        note_ = std::string("unbound (sched_getaffinity: ") + std::strerror(errno) + ")";
        saved_.reset();
        return;
      }
    }
    const std::size_t size = CPU_ALLOC_SIZE(set_cpus_);
    CpuSet wanted = allocate(set_cpus_);
    for (int cpu : cpus) {
      if (CPU_ISSET_S(cpu, size, saved_.get())) {
        CPU_SET_S(cpu, size, wanted.get());
        bound_.push_back(cpu);
      }
    }
    if (bound_.empty()) {
      note_ = "unbound (none of the GPU's CPUs " + format_cpu_list(cpus) + " is allowed to this thread)";
      saved_.reset();
      return;
    }
    if (sched_setaffinity(0, size, wanted.get()) != 0) {
      note_ = std::string("unbound (sched_setaffinity: ") + std::strerror(errno) + ")";
      bound_.clear();
      saved_.reset();
      return;
    }
    note_ = format_cpu_list(bound_);
  }
  ~ScopedCpuBinding() {
    if (!bound_.empty()) sched_setaffinity(0, CPU_ALLOC_SIZE(set_cpus_), saved_.get());
  }
  ScopedCpuBinding(const ScopedCpuBinding&) = delete;
  ScopedCpuBinding& operator=(const ScopedCpuBinding&) = delete;

  const std::vector<int>& bound_cpus() const { return bound_; }  // empty when not bound
  // The CPUs bound to, or "unbound (why)": for the benchmark's params.
  const std::string& note() const { return note_; }

 private:
  struct FreeCpuSet {
    void operator()(cpu_set_t* set) const { CPU_FREE(set); }
  };
  using CpuSet = std::unique_ptr<cpu_set_t, FreeCpuSet>;

  static CpuSet allocate(int cpus) {
    CpuSet set(CPU_ALLOC(cpus));
    if (!set) throw std::bad_alloc();
    CPU_ZERO_S(CPU_ALLOC_SIZE(cpus), set.get());
    return set;
  }

  int set_cpus_ = 0;
  CpuSet saved_;
  std::vector<int> bound_;
  std::string note_;
};

}  // namespace gpubench
