#include "harness/runner/suites.hpp"

#include <stdexcept>

namespace gpubench {

const std::vector<FamilySpec>& benchmark_families() {
  static const std::vector<FamilySpec> families = {
      {"memory", "device memory bandwidth: STREAM read/write/copy/scale/add/triad and cudaMemcpy D2D, 1 GiB arrays",
       true, 3, 5, std::chrono::seconds(300)},
      {"gemm", "cuBLAS/cuBLASLt GEMM: FP32, TF32, FP16, BF16, FP8 (cc >= 8.9); square sweep and transformer shapes",
       true, 3, 5, std::chrono::seconds(900)},
      {"pcie", "host<->device copies over PCIe: pinned and pageable, each way and both at once, 4 KiB to 1 GiB",
       true, 3, 5, std::chrono::seconds(600)},
      {"launch", "CUDA Graph replay against plain launches of N tiny kernels; launch-to-start latency",
       true, 3, 5, std::chrono::seconds(300)},
      {"sync", "sync-heavy against sync-light: redundant __syncthreads(), per-launch host syncs, event waits",
       true, 3, 5, std::chrono::seconds(300)},
  };
  return families;
}

std::vector<FamilySpec> families_in_suite(const std::string& suite) {
  if (suite != "quick" && suite != "full") throw std::invalid_argument("unknown suite '" + suite + "' (quick or full)");
  std::vector<FamilySpec> selected;
  for (const FamilySpec& family : benchmark_families()) {
    if (suite == "full" || family.in_quick) selected.push_back(family);
  }
  return selected;
}

}  // namespace gpubench
