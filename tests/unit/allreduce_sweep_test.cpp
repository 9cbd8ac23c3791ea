// The host side of the all-reduce benchmarks: sizes and ids, the expected sum and its tolerance, the failure
// reason and the params. No GPU needed.
#include "benchmarks/nccl/allreduce_sweep.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "benchmarks/nccl/allreduce_check.cuh"

namespace gpubench {
namespace {


TEST(AllReduceSizes, FullSuiteIsEveryPowerOfTwoFrom8BytesTo4GiB) {
  const std::vector<std::size_t> sizes = allreduce_sizes(Suite::Full);
  ASSERT_EQ(sizes.size(), 30u);
  EXPECT_EQ(sizes.front(), 8u);
  EXPECT_EQ(sizes.back(), 4 * kGiB);
  for (std::size_t i = 1; i < sizes.size(); ++i) EXPECT_EQ(sizes[i], 2 * sizes[i - 1]);
}

TEST(AllReduceSizes, QuickSuiteStepsByEightAndKeeps1And4GiB) {
  const std::vector<std::size_t> sizes = allreduce_sizes(Suite::Quick);
  const std::vector<std::size_t> expected = {8,           64,          512,         4096,       32768, 262144,
                                             2097152,     16777216,    134217728,   kGiB,       4 * kGiB};
  EXPECT_EQ(sizes, expected);
  const std::vector<std::size_t> full = allreduce_sizes(Suite::Full);
  for (std::size_t size : sizes) EXPECT_NE(std::find(full.begin(), full.end(), size), full.end()) << size;
}

TEST(AllReducePlacements, QuickSuiteRunsForcedCombinationsOutOfPlaceOnly) {
  const std::vector<Placement> both = {Placement::OutOfPlace, Placement::InPlace};
  EXPECT_EQ(allreduce_placements(Suite::Quick, {"ring", "ll"}), std::vector<Placement>{Placement::OutOfPlace});
  EXPECT_EQ(allreduce_placements(Suite::Quick, {"auto", "auto"}), both);
  EXPECT_EQ(allreduce_placements(Suite::Full, {"tree", "ll128"}), both);
  EXPECT_EQ(allreduce_placements(Suite::Full, {"auto", "auto"}), both);
}

TEST(AllReduceNames, SizesInTheLargestWholeBinaryUnit) {
  EXPECT_EQ(size_name(8), "8B");
  EXPECT_EQ(size_name(512), "512B");
  EXPECT_EQ(size_name(1024), "1KiB");
  EXPECT_EQ(size_name(262144), "256KiB");
  EXPECT_EQ(size_name(std::size_t{1} << 20), "1MiB");
  EXPECT_EQ(size_name(kGiB), "1GiB");
  EXPECT_EQ(size_name(4 * kGiB), "4GiB");
  EXPECT_EQ(size_name(1536), "1536B");
}

TEST(AllReduceNames, IdsFollowTheContract) {
  EXPECT_EQ(allreduce_benchmark_name({"ring", "simple"}, kGiB, Placement::OutOfPlace),
            "nccl/allreduce/ring/simple/1GiB/out_of_place");
  EXPECT_EQ(allreduce_benchmark_name({"auto", "auto"}, 8, Placement::InPlace), "nccl/allreduce/auto/auto/8B/in_place");
}

TEST(AllReduceSamples, SmallCallsAreTimedSeveralToASample) {
  EXPECT_EQ(calls_per_sample(8, 2, Placement::OutOfPlace), 16);
  EXPECT_EQ(calls_per_sample(std::size_t{1} << 20, 2, Placement::OutOfPlace), 16);
  EXPECT_EQ(calls_per_sample(std::size_t{2} << 20, 2, Placement::OutOfPlace), 4);
  EXPECT_EQ(calls_per_sample(std::size_t{16} << 20, 2, Placement::OutOfPlace), 2);
  EXPECT_EQ(calls_per_sample(std::size_t{64} << 20, 2, Placement::OutOfPlace), 1);
  EXPECT_EQ(calls_per_sample(kGiB, 2, Placement::InPlace), 1);
}

TEST(AllReduceSamples, InPlaceChainsNoMoreCallsThanAFloatCanGrow) {
  EXPECT_EQ(calls_per_sample(8, 2, Placement::InPlace), 16);
  EXPECT_EQ(calls_per_sample(8, 72, Placement::InPlace), 16);   // 72^16 = 5e29
  EXPECT_EQ(calls_per_sample(8, 1024, Placement::InPlace), 9);  // 1024^9 = 1.2e27
  for (int ranks : {2, 8, 100, 4096, 1 << 20}) {
    const int calls = calls_per_sample(64, ranks, Placement::InPlace);
    EXPECT_GE(calls, 1);
    EXPECT_LT(calls * std::log10(static_cast<double>(ranks)), 30.5) << ranks;  // 1.5 x ranks^calls < FLT_MAX
  }
}

// Every order NCCL might add in gives a float sum within the tolerance; a wrong contribution never does.
TEST(AllReduceExpectedSum, ToleranceCoversEverySummationOrder) {
  for (int ranks : {2, 3, 8, 72}) {
    for (std::uint64_t i = 0; i < 2000; ++i) {
      const kernels::ExpectedSum expected = kernels::expected_allreduce_sum(i, ranks);
      float forward = 0.0f;
      float backward = 0.0f;
      for (int r = 0; r < ranks; ++r) forward += kernels::allreduce_input(r, i);
      for (int r = ranks - 1; r >= 0; --r) backward += kernels::allreduce_input(r, i);
      // Pairwise, as a tree reduces.
      std::vector<float> level;
      for (int r = 0; r < ranks; ++r) level.push_back(kernels::allreduce_input(r, i));
      while (level.size() > 1) {
        std::vector<float> next;
        for (std::size_t k = 0; k + 1 < level.size(); k += 2) next.push_back(level[k] + level[k + 1]);
        if (level.size() % 2 == 1) next.push_back(level.back());
        level = next;
      }
      for (float sum : {forward, backward, level[0]}) {
        ASSERT_TRUE(kernels::allreduce_result_ok(sum, i, ranks)) << ranks << " ranks, element " << i << ": " << sum
                                                                 << " vs " << expected.value;
      }
      const float missing_one = forward - kernels::allreduce_input(ranks - 1, i);
      ASSERT_FALSE(kernels::allreduce_result_ok(missing_one, i, ranks));
      ASSERT_FALSE(kernels::allreduce_result_ok(forward + kernels::allreduce_input(0, i), i, ranks));
      ASSERT_FALSE(kernels::allreduce_result_ok(std::nanf(""), i, ranks));
    }
  }
}

TEST(AllReduceExpectedSum, InputsAreRandomAndDifferPerRank) {
  int equal = 0;
  for (std::uint64_t i = 0; i < 1000; ++i) {
    const float a = kernels::allreduce_input(0, i);
    const float b = kernels::allreduce_input(1, i);
    EXPECT_GE(a, kernels::kAllReduceInputLo);
    EXPECT_LT(a, kernels::kAllReduceInputHi);
    equal += a == b;
  }
  EXPECT_LT(equal, 5);
}

TEST(AllReduceExpectedSum, OneRankMustBeAnExactCopy) {
  const float x = kernels::allreduce_input(0, 7);
  EXPECT_TRUE(kernels::allreduce_result_ok(x, 7, 1));
  EXPECT_FALSE(kernels::allreduce_result_ok(std::nextafter(x, 2.0f), 7, 1));
}

TEST(AllReduceReport, MismatchReasonNamesRankGpuAndFirstElement) {
  std::vector<RankCheck> checks(2);
  checks[0].rank = 0;
  checks[1].rank = 1;
  checks[1].device = 3;
  EXPECT_EQ(describe_mismatches(checks, 100), "");
  checks[1].mismatches = 2;
  checks[1].first_index = 41;
  checks[1].actual = 1.5f;
  checks[1].expected = 2.25;
  checks[1].tolerance = 2.7e-7;
  const std::string reason = describe_mismatches(checks, 100);
  EXPECT_NE(reason.find("rank 1 (GPU 3)"), std::string::npos) << reason;
  EXPECT_NE(reason.find("2 of 100 elements"), std::string::npos) << reason;
  EXPECT_NE(reason.find("element 41: 1.5 instead of 2.25"), std::string::npos) << reason;
}

TEST(AllReduceReport, ParamsCarryTimesBandwidthsAndCombinations) {
  AllReduceMeasurement m;
  m.bytes = kGiB;
  m.placement = Placement::InPlace;
  m.ranks = 2;
  m.mean_seconds = 3.2735e-3;
  m.forced = {"ring", "simple"};
  m.mode = "single_process";
  EXPECT_NEAR(allreduce_busbw_gbps(m), 328.01, 0.001);
  std::map<std::string, std::string> params = allreduce_params(m);
  EXPECT_EQ(params.at("time_us"), "3273.5");
  EXPECT_EQ(params.at("algbw_GBps"), "328.01");
  EXPECT_EQ(params.at("bytes"), "1073741824");
  EXPECT_EQ(params.at("ranks"), "2");
  EXPECT_EQ(params.at("placement"), "in_place");
  EXPECT_EQ(params.at("calls_per_sample"), "1");
  EXPECT_EQ(params.at("nccl_algo_forced"), "ring");
  EXPECT_EQ(params.at("nccl_proto_forced"), "simple");
  EXPECT_EQ(params.at("nccl_algo_used"), "unknown");
  EXPECT_EQ(params.at("nccl_proto_used"), "unknown");
  m.used = NcclCombination{"ring", "ll128"};
  params = allreduce_params(m);
  EXPECT_EQ(params.at("nccl_algo_used"), "ring");
  EXPECT_EQ(params.at("nccl_proto_used"), "ll128");
}

}  // namespace
}  // namespace gpubench
