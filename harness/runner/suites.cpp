#include "harness/runner/suites.hpp"

#include <cctype>
#include <stdexcept>

namespace gpubench {

namespace {

// Ring and Tree with each protocol, each in its own process (NCCL reads NCCL_ALGO/NCCL_PROTO at init),
// then NCCL's own choice. NVLS is never forced: NVLink multicast can take a shared host's GPUs out of service.
std::vector<FamilyVariant> nccl_variants() {
  std::vector<FamilyVariant> variants;
  for (const char* algo : {"Ring", "Tree"}) {
    for (const char* proto : {"Simple", "LL", "LL128"}) {
      std::string name = std::string(algo) + "_" + proto;
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      variants.push_back({name, {{"NCCL_ALGO", algo}, {"NCCL_PROTO", proto}}});
    }
  }
  variants.push_back({"auto", {}});
  return variants;
}

}  // namespace

const std::vector<FamilySpec>& benchmark_families() {
  static const std::vector<FamilySpec> families = {
      {"memory", "device memory bandwidth: STREAM read/write/copy/scale/add/triad and cudaMemcpy D2D, 1 GiB arrays",
       true, 3, 5, std::chrono::seconds(300)},
      {"gemm", "cuBLAS/cuBLASLt GEMM: FP32, TF32, FP16, BF16, FP8 (cc >= 8.9); square sweep, transformer shapes, "
       "sustained and in bursts from idle",
       true, 3, 5, std::chrono::seconds(900)},
      {"pcie", "host<->device copies over PCIe: pinned and pageable, each way and both at once, 4 KiB to 1 GiB",
       true, 3, 5, std::chrono::seconds(3600)},  // the full suite takes about 6 min a GPU
      {"launch", "CUDA Graph replay against plain launches of N tiny kernels; launch-to-start latency",
       true, 3, 5, std::chrono::seconds(300)},
      {"sync", "sync-heavy against sync-light: redundant __syncthreads(), per-launch host syncs, event waits",
       true, 3, 5, std::chrono::seconds(300)},
      {"p2p", "GPU-to-GPU copies over NVLink/PCIe for every ordered pair: copy engines, SM loads/stores, staged "
              "through the host, remote-access latency",
       true, 3, 5, std::chrono::seconds(1800)},  // 26 benchmarks per ordered pair in the full suite
      {"nccl", "NCCL all-reduce, 8 B to 4 GiB, for each algorithm and protocol and NCCL's own choice",
       true, 3, 5, std::chrono::seconds(1200), nccl_variants()},  // per variant; the full sweep takes ~550 s
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
