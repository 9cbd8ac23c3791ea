// The first test's lines are what NCCL 2.28.9 printed on two H200s; the others are forms that its source
// (src/enqueue.cc) and earlier releases are believed to print.
#include "benchmarks/nccl/nccl_tuning_line.hpp"

#include <gtest/gtest.h>

#include "benchmarks/nccl/nccl_combination.hpp"

namespace gpubench {
namespace {

constexpr std::size_t kGiB = std::size_t{1} << 30;

TEST(NcclTuningLine, ReadsWhatNccl2289PrintedOnTwoH200s) {
  const std::string text =
      "vm:705:705 [0] NCCL INFO AllReduce: 8 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..0}\n"
      "vm:705:705 [0] NCCL INFO AllReduce: 2097152 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..23}\n"
      "vm:705:705 [0] NCCL INFO AllReduce: 1073741824 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..23}\n";
  for (std::size_t bytes : {std::size_t{8}, std::size_t{2097152}, kGiB}) {
    const auto choice = choice_from_debug_text(text, "AllReduce", {bytes});
    ASSERT_TRUE(choice.has_value()) << bytes;
    EXPECT_EQ(choice->algo, "ring");
    EXPECT_EQ(choice->proto, "simple");
  }
}

TEST(NcclTuningLine, ReadsTheMixedCaseNamedForm) {
  const auto choice = choice_from_debug_text(
      "gpu-node-7:48213:48213 [0] NCCL INFO AllReduce: 1073741824 Bytes -> Algo Ring proto Simple channel{Lo..Hi}={0..31}\n", "AllReduce", {kGiB});
  ASSERT_TRUE(choice.has_value());
  EXPECT_EQ(choice->algo, "ring");
  EXPECT_EQ(choice->proto, "simple");
}

TEST(NcclTuningLine, IgnoresCaseTimestampsAndMissingNewline) {
  const auto choice = choice_from_debug_text(
      "[2025-11-02 10:31:07] node:1:2 [1] NCCL INFO AllReduce: 4096 Bytes -> Algo TREE proto LL128 channel{Lo..Hi}={0..1}", "AllReduce", {4096});
  ASSERT_TRUE(choice.has_value());
  EXPECT_EQ(choice->algo, "tree");
  EXPECT_EQ(choice->proto, "ll128");
}

TEST(NcclTuningLine, MapsTheNumericFormOfOlderReleases) {
  const auto with_name = choice_from_debug_text(
      "node:9:9 [0] NCCL INFO AllReduce: 37756928 Bytes -> Algo 1 proto 2 time 2860.208008\n", "AllReduce", {37756928});
  ASSERT_TRUE(with_name.has_value());
  EXPECT_EQ(with_name->algo, "ring");
  EXPECT_EQ(with_name->proto, "simple");
  const auto without_name =
      choice_from_debug_text("node:9:9 [0] NCCL INFO 8 Bytes -> Algo 0 proto 0 time 12.5\n", "AllReduce", {8});
  ASSERT_TRUE(without_name.has_value());
  EXPECT_EQ(without_name->algo, "tree");
  EXPECT_EQ(without_name->proto, "ll");
  EXPECT_FALSE(choice_from_debug_text("x [0] NCCL INFO 8 Bytes -> Algo 9 proto 0 time 1\n", "AllReduce", {8}).has_value());
}

TEST(NcclTuningLine, TheLastLineAboutTheSizeWins) {
  const std::string text =
      "h:1:1 [0] NCCL INFO AllReduce: 65536 Bytes -> Algo Tree proto LL channel{Lo..Hi}={0..3}\n"
      "h:1:1 [0] NCCL INFO AllReduce: 65536 Bytes -> Algo Ring proto LL128 channel{Lo..Hi}={0..7}\n"
      "h:1:1 [0] NCCL INFO AllReduce: 131072 Bytes -> Algo Tree proto Simple channel{Lo..Hi}={0..7}\n";
  const auto choice = choice_from_debug_text(text, "AllReduce", {65536});
  ASSERT_TRUE(choice.has_value());
  EXPECT_EQ(choice->algo, "ring");
  EXPECT_EQ(choice->proto, "ll128");
}

TEST(NcclTuningLine, IgnoresOtherCollectivesOtherSizesAndOtherLines) {
  const std::string text =
      "h:1:1 [0] NCCL INFO AllGather: 1024 Bytes -> Algo Ring proto LL channel{Lo..Hi}={0..0}\n"
      "h:1:1 [0] NCCL INFO AllReduce: 2048 Bytes -> Algo Ring proto LL channel{Lo..Hi}={0..0}\n"
      "h:1:1 [0] NCCL INFO Channel 00/32 : 0 1\n"
      "h:1:1 [0] NCCL INFO   Algorithm   |            Tree |            Ring |\n"
      "\n";
  EXPECT_FALSE(choice_from_debug_text(text, "AllReduce", {1024}).has_value());
  EXPECT_FALSE(choice_from_debug_text("", "AllReduce", {1024}).has_value());
}

TEST(NcclTuningLine, ReadsTheLineOfTheCollectiveAskedAbout) {
  const std::string text =
      "h:1:1 [0] NCCL INFO AllGather: 1024 Bytes -> Algo Ring proto LL channel{Lo..Hi}={0..0}\n"
      "h:1:1 [0] NCCL INFO ReduceScatter: 1024 Bytes -> Algo Ring proto Simple channel{Lo..Hi}={0..0}\n"
      "h:1:1 [0] NCCL INFO Broadcast: 1024 Bytes -> Algo Ring proto LL128 channel{Lo..Hi}={0..0}\n";
  EXPECT_EQ(choice_from_debug_text(text, "AllGather", {1024}), (NcclCombination{"ring", "ll"}));
  EXPECT_EQ(choice_from_debug_text(text, "ReduceScatter", {1024}), (NcclCombination{"ring", "simple"}));
  EXPECT_EQ(choice_from_debug_text(text, "Broadcast", {1024}), (NcclCombination{"ring", "ll128"}));
  EXPECT_FALSE(choice_from_debug_text(text, "Reduce", {1024}).has_value()) << "Reduce is not ReduceScatter";
  EXPECT_FALSE(choice_from_debug_text(text, "AllReduce", {1024}).has_value());
}

// An all-gather of 4 ranks with 256-byte blocks: the line may give the receive buffer (1024) or the count's bytes.
TEST(NcclTuningLine, AcceptsEitherSizeOfACollectiveWhoseBuffersDiffer) {
  const std::vector<std::size_t> sizes = {1024, 256};
  EXPECT_TRUE(choice_from_debug_text("h:1:1 [0] NCCL INFO AllGather: 1024 Bytes -> Algo Ring proto LL\n", "AllGather", sizes));
  EXPECT_TRUE(choice_from_debug_text("h:1:1 [0] NCCL INFO AllGather: 256 Bytes -> Algo Ring proto LL\n", "AllGather", sizes));
  EXPECT_FALSE(choice_from_debug_text("h:1:1 [0] NCCL INFO AllGather: 512 Bytes -> Algo Ring proto LL\n", "AllGather", sizes));
}

TEST(NcclTuningLine, ToleratesTruncatedLinesAndNulBytes) {
  EXPECT_FALSE(choice_from_debug_text("h:1:1 [0] NCCL INFO AllReduce: 1024 Bytes -> Algo Ring", "AllReduce", {1024}).has_value());
  EXPECT_FALSE(choice_from_debug_text("AllReduce: 99999999999999999999999 Bytes -> Algo Ring proto LL x", "AllReduce", {8}).has_value());
  std::string text(64, '\0');
  text += "h:1:1 [0] NCCL INFO AllReduce: 8 Bytes -> Algo Tree proto LL channel{Lo..Hi}={0..0}\n";
  const auto choice = choice_from_debug_text(text, "AllReduce", {8});
  ASSERT_TRUE(choice.has_value());
  EXPECT_EQ(choice->algo, "tree");
  EXPECT_EQ(choice->proto, "ll");
}

TEST(NcclCombinationNames, LowerCaseOrAutoWhenUnset) {
  EXPECT_EQ(forced_combination("Ring", "Simple"), (NcclCombination{"ring", "simple"}));
  EXPECT_EQ(forced_combination("Tree", "LL128"), (NcclCombination{"tree", "ll128"}));
  EXPECT_EQ(forced_combination(nullptr, nullptr), (NcclCombination{"auto", "auto"}));
  EXPECT_EQ(forced_combination("", "LL"), (NcclCombination{"auto", "ll"}));
}

TEST(NcclCombinationNames, ListsBecomeIdSafe) {
  EXPECT_EQ(combination_part_name("^NVLS,CollNetDirect"), "_nvls_collnetdirect");
  EXPECT_EQ(combination_part_name("allreduce:tree;broadcast:ring"), "allreduce_tree_broadcast_ring");
}

}  // namespace
}  // namespace gpubench
