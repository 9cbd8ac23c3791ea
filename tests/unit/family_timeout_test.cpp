// A family variant's time limit grows past two GPUs as the family's work does: with the GPUs for a family measured
// GPU by GPU, with the ordered pairs for the pair family, not at all for one measured on every GPU at once.
#include "harness/runner/family_timeout.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace gpubench {
namespace {

using std::chrono::seconds;

const FamilySpec& family(const std::string& name) {
  const FamilySpec* found = family_of(name + "/");
  if (found == nullptr) throw std::runtime_error("no family " + name);
  return *found;
}

const std::vector<std::string> kGemm = {"gemm/bf16/8192x8192x8192/gpu0", "gemm/bf16/8192x8192x8192/gpu7"};
const std::vector<std::string> kP2p = {"p2p/ce_unidir/1GiB/gpu0-gpu1", "p2p/ce_all_to_one/512MiB/gpu3"};
const std::vector<std::string> kNccl = {"nccl/allreduce/auto/auto/1GiB/out_of_place", "nccl/broadcast/graph/4KiB"};

TEST(FamilyTimeout, OneOrTwoGpusKeepTheCataloguesLimit) {
  for (std::size_t gpus : {std::size_t{0}, std::size_t{1}, std::size_t{2}}) {
    EXPECT_EQ(family_timeout(family("gemm"), kGemm, gpus), family("gemm").timeout) << gpus;
    EXPECT_EQ(family_timeout(family("p2p"), kP2p, gpus), family("p2p").timeout) << gpus;
    EXPECT_EQ(family_timeout(family("nccl"), kNccl, gpus), family("nccl").timeout) << gpus;
  }
}

TEST(FamilyTimeout, EightGpusByHand) {
  // gemm, 1800 s on two GPUs, measures one GPU after another: 8 / 2 = 4 times, 7200 s (the full suite's search for the
  // maximum achievable alone takes about a minute a precision a GPU: 4 x 8 = 32 minutes).
  EXPECT_EQ(family("gemm").timeout, seconds(1800));
  EXPECT_EQ(family_timeout(family("gemm"), kGemm, 8), seconds(7200));
  // p2p, 1800 s on two GPUs' 2 ordered pairs: 8 x 7 = 56 pairs, 28 times, 50400 s.
  EXPECT_EQ(family("p2p").timeout, seconds(1800));
  EXPECT_EQ(family_timeout(family("p2p"), kP2p, 8), seconds(50400));
  // nccl measures every GPU at once in each benchmark: 5400 s whatever the count.
  EXPECT_EQ(family_timeout(family("nccl"), kNccl, 8), seconds(5400));
}

TEST(FamilyTimeout, FourAndThreeGpus) {
  // launch, 300 s: 4 GPUs twice that, 600 s; 3 GPUs 450 s. p2p: 4 x 3 = 12 pairs, 6 times, 10800 s; 3 x 2 = 6 pairs,
  // 3 times, 5400 s.
  const std::vector<std::string> launch = {"launch/graph_replay/100/gpu0"};
  EXPECT_EQ(family_timeout(family("launch"), launch, 4), seconds(600));
  EXPECT_EQ(family_timeout(family("launch"), launch, 3), seconds(450));
  EXPECT_EQ(family_timeout(family("p2p"), kP2p, 4), seconds(10800));
  EXPECT_EQ(family_timeout(family("p2p"), kP2p, 3), seconds(5400));
}

TEST(FamilyTimeout, APairAnywhereInTheVariantMakesItAPairFamily) {
  // pcie's figures of every GPU at once (all_gpus) beside its per-GPU ones: per GPU. Patterns alone: per GPU.
  const std::vector<std::string> pcie = {"pcie/h2d/pinned/1GiB/all_gpus", "pcie/h2d/pinned/1GiB/gpu1"};
  EXPECT_EQ(family_timeout(family("pcie"), pcie, 8), family("pcie").timeout * 4);
  EXPECT_EQ(family_timeout(family("pcie"), {"pcie/h2d/pinned/1GiB/all_gpus"}, 8), family("pcie").timeout);
  EXPECT_EQ(family_timeout(family("p2p"), {"p2p/ce_all_to_one/512MiB/gpu3"}, 8), seconds(7200));
}

}  // namespace
}  // namespace gpubench
