#pragma once
// Runs a suite: one gpubench-micro child per family variant, with a time limit, NVML telemetry sampled meanwhile,
// and the results gathered into one document. A family that fails, hangs or crashes costs that family only.
#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "benchmarks/gemm/gemm_shape_list.hpp"
#include "harness/results/results_document.hpp"
#include "harness/results/run_observer.hpp"
#include "harness/runner/suites.hpp"
#include "harness/runner/telemetry_sampler.hpp"

namespace gpubench {

class NvmlLibrary;

struct RunOptions {
  std::string suite = "quick";
  std::string filter;               // regex searched in benchmark names; empty: all
  std::vector<int> devices;         // CUDA indices, already validated
  std::string micro_path;
  std::string log_dir;              // per-family JSON, stdout and stderr
  int repetitions = 0;              // 0: the family's default for the suite
  std::chrono::seconds timeout{0};  // per family variant; 0: the family's default
  std::vector<GemmShape> gemm_shapes;  // measured besides the suite's own (GPUBENCH_GEMM_SHAPES)
  bool allow_nvls = false;             // NCCL_NVLS_ENABLE=1 for the nccl family (gpubench run --allow-nvls)
};

// NVLink multicast (NVLS) can take a shared host's GPUs out of service, so every child runs with
// NCCL_NVLS_ENABLE=0, whatever this process's environment holds, unless the operator opted in: then the nccl
// family's children run with 1. The value a family's children get.
std::string nvls_enable_for(const std::string& family, bool allow_nvls);

// Fills document.families, metrics, failures and skipped (document.run and environment are the caller's, but for
// environment.variables.NCCL_NVLS_ENABLE: what the nccl family ran with).
// Returns early, marking the document interrupted, when *stop becomes true.
void run_benchmarks(const RunOptions& options, const std::vector<TelemetrySampler::Target>& telemetry_targets,
                    const NvmlLibrary* nvml, const RunObserver& observer, const std::atomic<bool>& stop,
                    ResultsDocument& document);

}  // namespace gpubench
