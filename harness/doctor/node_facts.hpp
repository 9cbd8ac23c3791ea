#pragma once
// What `gpubench doctor` reads from a node, as plain values: per GPU (NVML, CUDA, sysfs), per pair of GPUs,
// and for the host. read_node_facts fills it in; health_rules judges it. Tests build it by hand.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/environment/gpu_processes.hpp"

namespace gpubench {

// A value read from the node, or why it could not be read ("nvmlDeviceGetRemappedRows: Not Supported").
template <typename T>
struct Reading {
  std::optional<T> value;
  std::string why_not;  // empty when value is set
};

struct PcieLink {
  unsigned current_generation = 0;
  unsigned current_width = 0;
  unsigned max_generation = 0;  // the most both the GPU and its slot support
  unsigned max_width = 0;
};

struct EccMode {
  bool enabled = false;
  bool enabled_after_reset = false;  // the pending mode
};

struct RetiredPages {
  unsigned single_bit = 0;  // pages retired after repeated correctable errors
  unsigned double_bit = 0;  // pages retired after an uncorrectable error
  bool pending = false;     // retirement waits for a reboot or GPU reset
};

struct RemappedRows {
  unsigned correctable = 0;    // rows remapped after correctable errors
  unsigned uncorrectable = 0;  // rows remapped after uncorrectable errors
  bool pending = false;        // a remap waits for a GPU reset
  bool failed = false;         // a remap has failed: no spare row was left
};

// Error counters of one NVLink since the driver loaded; a counter the driver does not offer stays empty.
struct NvLinkCounters {
  std::optional<std::uint64_t> replay;
  std::optional<std::uint64_t> recovery;
  std::optional<std::uint64_t> crc_flit;
  std::optional<std::uint64_t> crc_data;
};

struct NvLinkFacts {
  unsigned link = 0;  // NVML's link number on this GPU
  bool active = false;
  Reading<NvLinkCounters> errors;  // read for active links only
  Reading<unsigned> speed_mb_per_s;  // per direction, as `nvidia-smi nvlink -s` shows it; active links only
};

// PCIe Advanced Error Reporting counts of one PCI function since boot (sysfs aer_dev_correctable,
// aer_dev_nonfatal, aer_dev_fatal). `named` keeps the counters above zero: "correctable RxErr" -> 3.
struct AerCounts {
  std::uint64_t correctable = 0;
  std::uint64_t nonfatal = 0;
  std::uint64_t fatal = 0;
  std::map<std::string, std::uint64_t> named;
};

// The AER counts of the GPU, or of the bridge port above it: the other end of the GPU's link.
struct PcieFunctionAer {
  std::string address;  // "0000:18:00.0"
  bool is_gpu = true;   // false: the upstream bridge port
  Reading<AerCounts> counts;
};

struct GpuFacts {
  int index = 0;  // CUDA's device index (after CUDA_VISIBLE_DEVICES)
  std::string name;
  std::string pci_bus_id;
  std::string uuid;    // "GPU-8c6f...", from CUDA; empty when unknown
  std::string serial;  // the board's serial number from NVML; empty where the GPU reports none
  std::uint64_t memory_bytes = 0;  // CUDA's total global memory; 0 when unknown
  std::string nvml_why_not;  // set when NVML has no handle for this GPU; every NVML reading is then empty
  Reading<unsigned> nvml_index;  // NVML's (and DCGM's) number for the GPU, which CUDA's may differ from
  Reading<std::string> vbios_version;

  Reading<bool> persistence_mode;
  Reading<EccMode> ecc_mode;
  Reading<std::uint64_t> ecc_volatile_corrected;  // counts since the driver loaded
  Reading<std::uint64_t> ecc_volatile_uncorrected;
  Reading<std::uint64_t> ecc_aggregate_corrected;  // counts over the GPU's life
  Reading<std::uint64_t> ecc_aggregate_uncorrected;
  Reading<RetiredPages> retired_pages;  // before Ampere
  Reading<RemappedRows> remapped_rows;  // Ampere and later

  Reading<PcieLink> pcie;  // as found, possibly idle
  // The current generation and width read while doctor copied to the GPU, which wakes an idle link.
  Reading<PcieLink> pcie_under_load;
  Reading<unsigned> pcie_replays;  // link-level retransmissions since the driver loaded (NVML)
  std::vector<PcieFunctionAer> pcie_aer;  // the GPU, then the bridge port above it where there is one

  Reading<std::vector<NvLinkFacts>> nvlinks;  // the links the GPU has; empty when it has none
  Reading<std::uint64_t> clock_event_reasons;  // nvmlClocksEventReason* bits, read before doctor used the GPU
  Reading<unsigned> temperature_c;
  Reading<unsigned> slowdown_temperature_c;
  Reading<unsigned> power_limit_mw;          // the limit the driver enforces now
  Reading<unsigned> default_power_limit_mw;  // the board's default
  Reading<std::vector<GpuProcess>> other_processes;  // compute and graphics processes other than doctor itself

  int numa_node = -1;  // -1: the platform reports none (common in VMs)
  Reading<std::vector<int>> local_cpus;  // sysfs local_cpulist, sorted
};

struct GpuPairFacts {
  int a = 0;  // CUDA indexes, a < b
  int b = 0;
  std::string link_kind = "unknown";  // NV<n>, PIX, PXB, PHB, NODE, SYS, as topology.hpp names it
  int nvlinks = 0;
  bool via_nvswitch = false;
  Reading<bool> peer_access;  // cudaDeviceCanAccessPeer, both ways
};

struct HostFacts {
  Reading<std::vector<int>> allowed_cpus;  // sched_getaffinity of this process, sorted
  // scaling_governor -> the CPUs using it; unreadable where sysfs has no cpufreq (VMs, some kernels)
  Reading<std::map<std::string, std::vector<int>>> governors;
  std::map<std::string, std::string> variables;  // the environment variables that change results
  // Seconds since the machine booted (/proc/uptime): the longest the driver's counters can have counted.
  Reading<double> uptime_s;
};

// One Xid the NVIDIA driver wrote to the kernel log: "NVRM: Xid (PCI:0000:18:00): 79, pid=..., GPU has fallen off the bus."
struct XidEvent {
  double seconds_since_boot = 0;
  std::string pci_device;  // "0000:18:00": domain, bus and device as the driver prints them, without the function
  int code = 0;
  std::string message;  // what follows the code
};

struct XidHistory {
  std::string source;  // "/dev/kmsg", "journalctl -k" or "dmesg"
  // Where the log read begins, in seconds since boot: later than the first seconds when the kernel's ring
  // buffer has wrapped, and Xids before it may be missing.
  double covers_from_s = 0;
  std::vector<XidEvent> events;
};

struct NodeFacts {
  std::string cuda_why_not;  // set when CUDA sees no usable GPU: CUDA's reason
  std::string nvml_why_not;  // set when NVML could not be loaded: why
  int cuda_device_count = 0;  // every GPU CUDA sees, selected or not
  Reading<unsigned> nvml_device_count;  // every GPU the driver knows, CUDA_VISIBLE_DEVICES or not
  Reading<std::string> driver_version;
  std::vector<GpuFacts> gpus;  // the GPUs selected with --devices
  std::vector<GpuPairFacts> pairs;
  Reading<XidHistory> xids;  // since boot
  HostFacts host;
};

}  // namespace gpubench
