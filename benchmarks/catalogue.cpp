#include "benchmarks/catalogue.hpp"

#include "benchmarks/common/metric_id.hpp"

#include <cctype>
#include <regex>

namespace gpubench {

namespace {

// Ring and Tree with each protocol, each in its own process (NCCL reads NCCL_ALGO/NCCL_PROTO at init),
// then NCCL's own choice (benchmarks/nccl/collective_sweep.hpp says which collectives each runs). NVLS is never
// forced: NVLink multicast can take a shared host's GPUs out of service (gpubench run --allow-nvls lets NCCL's own
// choice use it).
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

const std::vector<FamilyVariant> kOneVariant = {FamilyVariant{}};

}  // namespace

// Columns: name, description, in the quick suite, quick and full repetitions, timeout per variant, variants,
// tolerance, tolerance of small figures, acceptance figures, node-bound figures, whether a GPU's figures are its own.
// Acceptance takes the quick suite's figures that decide whether a node is fit in about a minute, not the four to five
// minutes the whole quick suite takes on two H200s: every memory figure, the large GEMMs, 1 GiB host copies, graph
// launch, the NVLink pair figures, every peer copying into each GPU at once (copy engines), and a 1 GiB all-reduce and
// all-to-all (MoE training's collective, about a second more; acceptance is not yet timed with it on two GPUs) with
// NCCL's own choice.
const std::vector<FamilySpec>& family_catalogue() {
  static const std::vector<FamilySpec> families = {
      // HBM bandwidth: within 1 % run to run on a healthy GPU.
      {"memory", "device memory bandwidth: STREAM read/write/copy/scale/add/triad and cudaMemcpy D2D, 1 GiB arrays",
       true, 3, 5, std::chrono::seconds(300), kOneVariant, 0.03, std::nullopt, {""}, {}, true},
      // Clocks move with power and temperature. The full suite's maximum-achievable search adds about a minute a
      // precision a GPU, its maximum-sustainable one about 40 s. Two quick repetitions: each sustained one is a 0.75 s
      // window (gemm.cu says why).
      {"gemm", "cuBLAS/cuBLASLt GEMM: FP32, TF32, FP16, BF16, FP8 (cc >= 8.9); square sweep, transformer shapes, "
       "sustained and in bursts from idle, the maximum achievable over a grid of shapes and the maximum sustainable "
       "over shapes of whole waves (full suite)",
       true, 2, 5, std::chrono::seconds(1800), kOneVariant, 0.05, std::nullopt,
       {"(bf16|fp8_e4m3|tf32|fp32)/8192x", "tensor_core_speedup/"}, {}, true},
      // The full suite takes about 6 min a GPU.
      {"pcie", "host<->device copies over PCIe: pinned and pageable, each way and both at once, 4 KiB to 1 GiB; each "
               "GPU's rate while every GPU copies (nvbandwidth's host_to_all, all_to_host; full suite)",
       true, 3, 5, std::chrono::seconds(3600), kOneVariant, 0.05, 0.15,
       {"(h2d|d2h|bidirectional_h2d|bidirectional_d2h)/pinned/1GiB/"}, {"(h2d|d2h)/pageable/"}},
      // Acceptance decides on graph replay's time per kernel at 100 kernels, a figure of the GPU's work scheduler with
      // one host call in a hundred kernels: 0.75 % between ten runs of two cards and 0.951-0.975 us on the four
      // one-H200 nodes seen, where graph_speedup/100 (its plain launches the host's) scattered 17 %. So graph replay
      // of 100 and 10,000 kernels is not host-bound; every other launch figure is (a host call per kernel or per graph).
      {"launch", "CUDA Graph replay against plain launches of N tiny kernels; launch-to-start latency",
       true, 3, 5, std::chrono::seconds(300), kOneVariant, 0.05, 0.15, {"graph_replay/100/"},
       {"plain_", "graph_instantiate/", "graph_speedup/", "graph_replay/1/", "launch_to_start/"}},
      {"sync", "sync-heavy against sync-light: redundant __syncthreads(), per-launch host syncs, event waits",
       true, 3, 5, std::chrono::seconds(300), kOneVariant, 0.05, 0.15, {}, {"host_"}},
      // 26 benchmarks per ordered pair in the full suite, and four concurrent patterns per GPU (two in the quick
      // suite: estimated at about a second each a GPU on two GPUs, not yet timed on one).
      {"p2p", "GPU-to-GPU copies over NVLink/PCIe for every ordered pair: copy engines, SM loads/stores, staged "
              "through the host, remote-access latency; per GPU, all peers into it and it into all peers at once "
              "(nvbandwidth's all_to_one, one_to_all)",
       true, 3, 5, std::chrono::seconds(1800), kOneVariant, 0.05, 0.15,
       {"(ce_unidir|ce_bidir)/1GiB/", "latency/", "ce_all_to_one/"}, {}},
      // Timeout per variant. The full all-reduce sweep took ~550 s a variant on two H200s. The full suite now
      // registers six times as many benchmarks where NCCL chooses (plus the graph timings) and five times as many
      // where Ring is forced; where Tree is, NCCL is expected to refuse the other collectives at once. Not yet
      // timed: estimated at ~3500 s where NCCL chooses.
      {"nccl", "NCCL collectives: all-reduce, all-gather, reduce-scatter, broadcast, reduce, all-to-all, send/recv, 8 B "
               "to 4 GiB, for each algorithm and protocol and NCCL's own choice; plain against CUDA Graph launches",
       true, 3, 5, std::chrono::seconds(5400), nccl_variants(), 0.05, 0.15, {"(allreduce|alltoall)/auto/auto/1GiB/"},
       {}},
      // Full suite: 18 benchmarks a GPU, about 90 s a GPU; the timeout covers eight.
      {"cache", "L2 read bandwidth over working sets of 4 KiB to 512 MiB (the L2 size from the device); "
                "shared-memory bandwidth, whole GPU and per SM",
       true, 3, 5, std::chrono::seconds(1200), kOneVariant, 0.05, 0.15, {}, {}, true},
      // Full suite: 25 benchmarks a GPU, about 150 s a GPU (the worst shapes take milliseconds a launch); the
      // timeout covers eight.
      {"blocksize", "STREAM triad over block sizes 32 to 1024 and blocks per SM; best launch over worst",
       true, 3, 5, std::chrono::seconds(2400), kOneVariant, 0.05, 0.15, {}, {}, true},
      // Quick suite estimated at 1-2 s a GPU (not yet timed on one); efficiency is a difference of times, so looser.
      {"overlap", "compute-copy overlap: a kernel sized to last as long as its H2D and D2H copies, on separate streams "
                  "against one stream, pinned and pageable",
       true, 3, 5, std::chrono::seconds(600), kOneVariant, 0.10, 0.15, {}, {}},
      // Host-side call costs in microseconds (the looser tolerance); quick suite estimated at about 1 s a GPU.
      {"alloc", "cudaMalloc/cudaFree against the stream-ordered pool allocator, 4 KiB to 1 GiB; the largest block "
                "left after a fragmenting pattern over all free memory, against the unused memory (full suite)",
       true, 3, 5, std::chrono::seconds(600), kOneVariant, 0.10, 0.25, {}, {""}},
  };
  return families;
}

const FamilySpec* family_of(const std::string& benchmark_or_metric) {
  for (const FamilySpec& family : family_catalogue()) {
    if (benchmark_or_metric.rfind(family.name + "/", 0) == 0) return &family;
  }
  return nullptr;
}

std::string acceptance_filter(const std::vector<FamilySpec>& families) {
  std::string alternatives;
  for (const FamilySpec& family : families) {
    for (const std::string& pattern : family.acceptance) {
      if (!alternatives.empty()) alternatives += "|";
      alternatives += family.name + "/" + pattern;
    }
  }
  return "^(" + alternatives + ")";
}

bool node_bound(const std::string& metric_id) {
  const FamilySpec* family = family_of(metric_id);
  if (family == nullptr) return false;
  const std::string rest = metric_id.substr(family->name.size() + 1);
  for (const std::string& pattern : family->node_bound) {
    if (std::regex_search(rest, std::regex("^(" + pattern + ")"))) return true;
  }
  return false;
}

bool gpu_own_figure(const std::string& metric_id) {
  const FamilySpec* family = family_of(metric_id);
  const MetricId id(metric_id);
  return family != nullptr && family->gpu_own && id.gpu().has_value() && !id.gpu_pair().has_value();
}

bool small_figure(const std::string& metric_id, const std::string& unit) {
  return unit == "us" || unit == "ms" || metric_id.find("KiB/") != std::string::npos;
}

}  // namespace gpubench
