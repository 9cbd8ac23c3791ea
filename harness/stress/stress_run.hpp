#pragma once
// `gpubench stress`: every selected GPU at once, each under one load (stress_mode.hpp) with every GEMM result
// verified, optionally with checked copies over its links (interconnect_load.hpp); NVML telemetry and critical
// Xid events once a second. NVML is only read: power limits, clocks and modes stay as they are. Produces one
// GpuStressRecord per GPU for the verdict rules.
#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "harness/stress/stress_record.hpp"

namespace gpubench {

class NvmlLibrary;

struct StressOptions {
  StressMode mode = StressMode::Sustained;
  std::chrono::seconds duration{60};
  std::vector<int> devices;
  std::chrono::milliseconds window{5000};  // GEMM throughput is reported per window
  bool interconnect = false;               // P2P and PCIe copies, checked, beside the load
  // The power load tunes itself during the warm-up, adding a GEMM lane while the GPU draws under this fraction of
  // its enforced power limit (the rules judge against the same fraction: StressLimits::power_target).
  double power_target = 0.90;
  std::chrono::seconds warmup{10};
  std::string inject_fault;  // test-only: "gemm" flips one bit in one GEMM result, "memory" one memory word
};

// Called about once a second from the telemetry thread with every GPU's record so far, its telemetry, windows and
// bursts cut to their last entry (for a live display).
using StressProgress = std::function<void(double elapsed_s, const std::vector<GpuStressRecord>& so_far)>;

std::vector<GpuStressRecord> run_stress(const StressOptions& options, const NvmlLibrary* nvml,
                                        const std::atomic<bool>& stop, const StressProgress& progress);

}  // namespace gpubench
