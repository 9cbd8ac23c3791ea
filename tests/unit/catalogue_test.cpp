// The family catalogue: one row per family, and what the harness derives from it is what it was before there was
// one table (the acceptance selection and the default tolerances, pinned here figure by figure).
#include "benchmarks/catalogue.hpp"

#include <gtest/gtest.h>

#include <set>

#include "harness/baseline/tolerances.hpp"

namespace gpubench {
namespace {

TEST(Catalogue, NamesAndVariantNamesAreUniqueAndNoFamilyNameHoldsASlash) {
  std::set<std::string> names;
  for (const FamilySpec& family : family_catalogue()) {
    EXPECT_TRUE(names.insert(family.name).second) << family.name;
    EXPECT_EQ(family.name.find('/'), std::string::npos) << family.name;
    ASSERT_FALSE(family.variants.empty()) << family.name;
    std::set<std::string> variants;
    for (const FamilyVariant& variant : family.variants) EXPECT_TRUE(variants.insert(variant.name).second) << variant.name;
  }
}

// One process per forced Ring or Tree combination and one where NCCL chooses; NVLS is never forced nor enabled by
// a variant (only `gpubench run --allow-nvls` enables it, for NCCL's own choice).
TEST(Catalogue, NcclVariantsForceRingAndTreeWithEachProtocolAndNeverNvls) {
  const FamilySpec* nccl = family_of("nccl/allgather/auto/auto/1GiB/out_of_place/busbw");
  ASSERT_NE(nccl, nullptr);
  std::set<std::string> names;
  for (const FamilyVariant& variant : nccl->variants) {
    names.insert(variant.name);
    EXPECT_EQ(variant.environment.count("NCCL_NVLS_ENABLE"), 0u) << variant.name;
    for (const auto& [name, value] : variant.environment) {
      EXPECT_EQ(value.find("NVLS"), std::string::npos) << variant.name << ": " << name << "=" << value;
    }
  }
  EXPECT_EQ(names, (std::set<std::string>{"ring_simple", "ring_ll", "ring_ll128", "tree_simple", "tree_ll", "tree_ll128",
                                          "auto"}));
  EXPECT_EQ(family_of("nccl/broadcast/graph/4KiB/time_per_call"), nccl);
}

TEST(Catalogue, FamilyOfAMetricIsItsWholeFirstComponent) {
  ASSERT_NE(family_of("memory/triad/1GiB/gpu0/bandwidth"), nullptr);
  EXPECT_EQ(family_of("memory/triad/1GiB/gpu0/bandwidth")->name, "memory");
  EXPECT_EQ(family_of("nccl/allreduce/auto/auto/1GiB/busbw")->name, "nccl");
  EXPECT_EQ(family_of("mem/triad"), nullptr);
  EXPECT_EQ(family_of("memoryx/triad"), nullptr);
  EXPECT_EQ(family_of("memory"), nullptr);
}

TEST(Catalogue, AcceptanceSelectsTheFiguresItAlwaysHas) {
  EXPECT_EQ(acceptance_filter(family_catalogue()),
            "^(memory/|gemm/(bf16|fp8_e4m3|tf32|fp32)/8192x|gemm/tensor_core_speedup/|pcie/(h2d|d2h|bidirectional_h2d|"
            "bidirectional_d2h)/pinned/1GiB/|launch/graph_replay/100/|p2p/(ce_unidir|ce_bidir)/1GiB/|p2p/latency/|p2p/ce_all_to_one/|"
            "nccl/(allreduce|alltoall)/auto/auto/1GiB/)");
}

// What the host's CPU and OS time as much as the GPU: every launch figure with a host call per kernel or per graph,
// every alloc figure, the host's syncs, pageable copies. Not the GPU's own figures, nor pinned copies, nor the sync
// family's kernels, nor graph replay of many kernels (one host call in a hundred kernels or more).
TEST(Catalogue, NodeBoundFiguresAreTheHostSidesOnes) {
  for (const char* id : {"launch/plain_sync_end/10000/gpu0/time_per_kernel", "launch/graph_speedup/100/gpu0/speedup",
                         "launch/plain_sync_each/1/gpu0/time_per_kernel", "launch/graph_instantiate/100/gpu0/time_per_graph",
                         "launch/graph_replay/1/gpu0/time_per_kernel",
                         "launch/launch_to_start/gpu0/latency", "sync/host_event_wait/100/gpu0/time_per_launch",
                         "alloc/cuda_free/256MiB/gpu0/time_per_call", "pcie/h2d/pageable/4KiB/gpu0/bandwidth",
                         "pcie/d2h/pageable/1GiB/gpu0/bandwidth"}) {
    EXPECT_TRUE(node_bound(id)) << id;
  }
  for (const char* id : {"memory/read/1GiB/gpu0/bandwidth", "gemm/bf16/8192x8192x8192/gpu0/tflops",
                         "pcie/h2d/pinned/1GiB/gpu0/bandwidth", "pcie/bidirectional_h2d/pinned/4KiB/gpu0/bandwidth",
                         "sync/device_light/256MiB/gpu0/kernel_time", "overlap/pageable/64MiB/gpu0/efficiency",
                         "nccl/allreduce/auto/auto/4KiB/out_of_place/busbw", "mem/host_x", "launchx/plain",
                         "launch/graph_replay/100/gpu0/time_per_kernel", "launch/graph_replay/10000/gpu0/time_per_kernel"}) {
    EXPECT_FALSE(node_bound(id)) << id;
  }
}

TEST(Catalogue, DefaultTolerancesByFamilyAndKindOfFigure) {
  EXPECT_DOUBLE_EQ(default_tolerance("memory/triad/1GiB/gpu0/bandwidth", "GB/s"), 0.03);
  EXPECT_DOUBLE_EQ(default_tolerance("memory/triad/4KiB/gpu0/time", "us"), 0.03) << "memory has no looser rule";
  EXPECT_DOUBLE_EQ(default_tolerance("gemm/bf16/8192x8192x8192/gpu0/throughput", "TFLOP/s"), 0.05);
  EXPECT_DOUBLE_EQ(default_tolerance("gemm/burst/bf16/4096x4096x4096/gpu0/first", "ms"), 0.05) << "nor has gemm";
  EXPECT_DOUBLE_EQ(default_tolerance("pcie/h2d/pinned/1GiB/gpu0/bandwidth", "GB/s"), 0.05);
  EXPECT_DOUBLE_EQ(default_tolerance("pcie/h2d/pinned/4KiB/gpu0/bandwidth", "GB/s"), 0.15);
  EXPECT_DOUBLE_EQ(default_tolerance("launch/launch_to_start/gpu0/latency", "us"), 0.15);
  EXPECT_DOUBLE_EQ(default_tolerance("sync/host_sync_each/small/gpu0/time", "ms"), 0.15);
  EXPECT_DOUBLE_EQ(default_tolerance("p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth", "GB/s"), 0.05);
  EXPECT_DOUBLE_EQ(default_tolerance("nccl/allreduce/auto/auto/8KiB/busbw", "GB/s"), 0.15);
  EXPECT_DOUBLE_EQ(default_tolerance("nccl/allreduce/auto/auto/1GiB/busbw", "GB/s"), 0.05);
  EXPECT_DOUBLE_EQ(default_tolerance("other/thing/latency", "us"), 0.15) << "a metric of no family";
  EXPECT_DOUBLE_EQ(default_tolerance("other/thing/bandwidth", "GB/s"), 0.05);
}

}  // namespace
}  // namespace gpubench
