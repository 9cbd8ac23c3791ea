#pragma once
// What `gpubench watch` records while a job runs (schema "gpubench.watch/1", docs/watch.md): per GPU a series of
// samples, each field absent where the GPU or driver could not give it (GPM metrics on a GPU without GPM); the
// job's host samples from /proc; and the Xid and ECC events seen during the job.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpubench {

inline constexpr const char* kWatchSchema = "gpubench.watch/1";

// Shares are 0..1; rates are GB/s (10^9 bytes). The GPM fields carry DCGM's profiling field names (1002-1012).
struct GpuSample {
  double t_s = 0;  // seconds since the job started
  // Plain NVML, on every GPU.
  std::optional<double> utilization;  // share of the interval a kernel ran
  std::optional<double> memory_used_gib;
  std::optional<double> memory_total_gib;
  std::optional<double> power_w;
  std::optional<double> sm_clock_mhz;
  std::optional<double> temperature_c;
  std::optional<std::uint64_t> clock_event_reasons;  // NVML's bit mask
  std::optional<int> pcie_gen;
  std::optional<int> pcie_width;
  // NVML GPM, Hopper and later.
  std::optional<double> sm_active;       // DCGM_FI_PROF_SM_ACTIVE
  std::optional<double> sm_occupancy;    // DCGM_FI_PROF_SM_OCCUPANCY
  std::optional<double> tensor_active;   // DCGM_FI_PROF_PIPE_TENSOR_ACTIVE
  std::optional<double> dram_active;     // DCGM_FI_PROF_DRAM_ACTIVE: a share of the theoretical peak
  std::optional<double> fp64_active;     // DCGM_FI_PROF_PIPE_FP64_ACTIVE
  std::optional<double> fp32_active;     // DCGM_FI_PROF_PIPE_FP32_ACTIVE
  std::optional<double> fp16_active;     // DCGM_FI_PROF_PIPE_FP16_ACTIVE
  std::optional<double> pcie_tx_gbps;    // DCGM_FI_PROF_PCIE_TX_BYTES: from the GPU, link bytes (headers too)
  std::optional<double> pcie_rx_gbps;    // DCGM_FI_PROF_PCIE_RX_BYTES: into the GPU, link bytes (headers too)
  std::optional<double> nvlink_tx_gbps;  // DCGM_FI_PROF_NVLINK_TX_BYTES
  std::optional<double> nvlink_rx_gbps;  // DCGM_FI_PROF_NVLINK_RX_BYTES
};

struct GpuTimeline {
  int index = 0;  // CUDA index, as in results documents
  std::string name;
  std::optional<double> dram_peak_gbps;  // theoretical, to turn dram_active into GB/s
  std::optional<int> pcie_max_gen;
  std::optional<int> pcie_max_width;
  std::optional<double> slowdown_temperature_c;  // NVML's slowdown threshold
  std::optional<double> power_limit_w;           // enforced when the watch began
  std::optional<double> default_power_limit_w;   // the board's default
  // Why Xid or ECC events of this GPU were not watched (NVML lacks event sets, a VM refuses them); empty when both
  // were. Without them "no events during the job" cannot be said.
  std::string events_unwatched;
  std::vector<GpuSample> samples;  // in time order
};

// The job's processes together, from /proc.
struct HostSample {
  double t_s = 0;
  double cpu_cores = 0;       // CPU time per second, in cores (3.5: three and a half cores busy)
  double busiest_thread = 0;  // share of one core the busiest thread used
  // Share of the interval the job waited on block I/O (its most-waiting thread, job_host_sampler.hpp); absent
  // when the kernel keeps no I/O delays (delay accounting off).
  std::optional<double> io_wait;
  // What the job's threads were doing at the sample (absent in documents written before watch read them).
  struct Threads {
    int total = 0;
    int running = 0;  // runnable or running (state R)
    // The threads whose waits tell why the job is slow: each process's main thread, any in uninterruptible sleep,
    // and every thread that ran since the previous sample (a runtime's helper threads that block for good would
    // otherwise always be found waiting on a lock or a poll).
    int working = 0;
    std::map<std::string, int> waits;  // working threads blocked, by what they wait on (thread_wait.hpp's kinds)
    std::string wait_detail;           // the most telling of those waits: "read() on /data/shard-3.bin"
  };
  std::optional<Threads> threads;
  // Bytes the job's processes fetched from and sent to storage per second, in GB/s (/proc/PID/io read_bytes and
  // write_bytes: block I/O, not the page cache); absent where /proc/PID/io cannot be read.
  std::optional<double> storage_read_gbps;
  std::optional<double> storage_write_gbps;
};

struct WatchEvent {
  double t_s = 0;
  int gpu = 0;
  std::string kind;  // "xid", "ecc_corrected", "ecc_uncorrected"
  long long code = 0;  // the Xid number, or how many ECC errors
  std::string detail;
};

struct WatchTimeline {
  std::vector<std::string> command;
  double interval_s = 1;
  int cpus_allowed = 0;  // cores the job may run on (its affinity mask)
  std::vector<GpuTimeline> gpus;
  std::vector<HostSample> host;  // in time order
  std::vector<WatchEvent> events;
};

nlohmann::json to_json(const WatchTimeline& timeline);
// Throws InputError naming `source` and the field when the document is invalid.
WatchTimeline watch_timeline_from_json(const nlohmann::json& json, const std::string& source);

}  // namespace gpubench
