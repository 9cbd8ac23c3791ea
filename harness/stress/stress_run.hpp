#pragma once
// `gpubench stress`: every selected GPU at once, each under a sustained BF16 Tensor Core GEMM load with a
// memory test over most of its free memory between GEMM windows; results verified throughout; NVML
// telemetry once a second. Produces one GpuStressRecord per GPU for the verdict rules.
#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "harness/stress/stress_record.hpp"

namespace gpubench {

class NvmlLibrary;

struct StressOptions {
  std::chrono::seconds duration{60};
  std::vector<int> devices;
  double memory_fraction = 0.85;  // of free memory for the memory test, after the GEMM buffers
  std::chrono::milliseconds window{5000};  // GEMM throughput is reported per window
  std::string inject_fault;  // test-only: "gemm" flips one bit in one GEMM result, "memory" one memory word
};

// Called about once a second from the telemetry thread with every GPU's record so far (for a live display).
using StressProgress = std::function<void(double elapsed_s, const std::vector<GpuStressRecord>& so_far)>;

std::vector<GpuStressRecord> run_stress(const StressOptions& options, const NvmlLibrary* nvml,
                                        const std::atomic<bool>& stop, const StressProgress& progress);

}  // namespace gpubench
