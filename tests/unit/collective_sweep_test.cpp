// What the nccl family registers in each suite and process (NCCL_ALGO / NCCL_PROTO forced or NCCL's own choice),
// the names it gives, and how many calls a sample holds. No GPU needed.
#include "benchmarks/nccl/collective_sweep.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace gpubench {
namespace {

const NcclCombination kAuto{"auto", "auto"};
const NcclCombination kRingSimple{"ring", "simple"};

std::vector<std::string> allreduce_names(Suite suite, const NcclCombination& forced) {
  std::vector<std::string> names;
  for (const SweepPoint& point : sweep_points(suite, forced)) {
    if (point.collective == Collective::AllReduce) names.push_back(benchmark_name(point, forced));
  }
  return names;
}

std::map<Collective, std::vector<SweepPoint>> by_collective(const std::vector<SweepPoint>& points) {
  std::map<Collective, std::vector<SweepPoint>> grouped;
  for (const SweepPoint& point : points) grouped[point.collective].push_back(point);
  return grouped;
}

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
  EXPECT_EQ(allreduce_placements(Suite::Quick, kAuto), both);
  EXPECT_EQ(allreduce_placements(Suite::Full, {"tree", "ll128"}), both);
  EXPECT_EQ(allreduce_placements(Suite::Full, kAuto), both);
}

// Baselines key on the all-reduce's ids: every suite and process registers them as it did before the other
// collectives, in the same order.
TEST(SweepPoints, AllReduceIdsAreUnchanged) {
  for (Suite suite : {Suite::Quick, Suite::Full}) {
    for (const NcclCombination& forced : {kAuto, kRingSimple, NcclCombination{"tree", "ll128"}}) {
      std::vector<std::string> before;
      for (std::size_t bytes : allreduce_sizes(suite)) {
        for (Placement placement : allreduce_placements(suite, forced)) {
          before.push_back("nccl/allreduce/" + forced.algo + "/" + forced.proto + "/" + size_name(bytes) + "/" +
                           placement_name(placement));
        }
      }
      EXPECT_EQ(allreduce_names(suite, forced), before);
    }
  }
  EXPECT_EQ(allreduce_names(Suite::Quick, kAuto)[18], "nccl/allreduce/auto/auto/1GiB/out_of_place");
}

TEST(SweepPoints, QuickSuiteRunsTheOtherCollectivesAt4KiBAnd1GiBOutOfPlaceWhereNcclChooses) {
  const auto grouped = by_collective(sweep_points(Suite::Quick, kAuto));
  ASSERT_EQ(grouped.size(), 7u);
  for (const auto& [collective, points] : grouped) {
    if (collective == Collective::AllReduce) continue;
    ASSERT_EQ(points.size(), 2u) << collective_id_name(collective);
    EXPECT_EQ(points[0].bytes, 4 * kKiB);
    EXPECT_EQ(points[1].bytes, kGiB);
    for (const SweepPoint& point : points) EXPECT_EQ(point.placement, Placement::OutOfPlace);
  }
  EXPECT_EQ(grouped.at(Collective::AllReduce).size(), 22u) << "11 sizes, both placements, as before";
}

TEST(SweepPoints, QuickSuiteForcedCombinationsStayAllReduceOnly) {
  const auto grouped = by_collective(sweep_points(Suite::Quick, {"tree", "ll"}));
  ASSERT_EQ(grouped.size(), 1u);
  EXPECT_EQ(grouped.begin()->first, Collective::AllReduce);
  EXPECT_EQ(grouped.begin()->second.size(), 11u);
}

TEST(SweepPoints, FullSuiteRunsEverythingWherePointToPointOnlyWhereNcclChooses) {
  const auto everything = by_collective(sweep_points(Suite::Full, kAuto));
  ASSERT_EQ(everything.size(), 7u);
  for (const auto& [collective, points] : everything) {
    const bool in_place = collective != Collective::AllToAll && collective != Collective::SendRecv;
    EXPECT_EQ(points.size(), in_place ? 60u : 30u) << collective_id_name(collective);
    EXPECT_EQ(points.front().bytes, 8u);
    EXPECT_EQ(points.back().bytes, 4 * kGiB);
    for (const SweepPoint& point : points) {
      if (!in_place) EXPECT_EQ(point.placement, Placement::OutOfPlace) << collective_id_name(collective);
    }
  }
  const auto forced = by_collective(sweep_points(Suite::Full, {"tree", "simple"}));
  const std::set<Collective> expected = {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter,
                                         Collective::Broadcast, Collective::Reduce};
  std::set<Collective> registered;
  for (const auto& [collective, points] : forced) {
    registered.insert(collective);
    EXPECT_EQ(points.size(), 60u) << collective_id_name(collective);
  }
  EXPECT_EQ(registered, expected) << "NCCL refuses or reports its choice; a refusal is a skip at run time";
}

TEST(SweepPoints, NamesFollowTheContractAndAreUnique) {
  EXPECT_EQ(benchmark_name({Collective::AllGather, kGiB, Placement::OutOfPlace}, kRingSimple),
            "nccl/allgather/ring/simple/1GiB/out_of_place");
  EXPECT_EQ(benchmark_name({Collective::ReduceScatter, 8, Placement::InPlace}, kAuto),
            "nccl/reducescatter/auto/auto/8B/in_place");
  std::set<std::string> names;
  for (const SweepPoint& point : sweep_points(Suite::Full, kAuto)) {
    EXPECT_TRUE(names.insert(benchmark_name(point, kAuto)).second) << benchmark_name(point, kAuto);
  }
  for (const LaunchPoint& point : launch_points(Suite::Full, kAuto)) {
    EXPECT_TRUE(names.insert(launch_benchmark_name(point)).second) << launch_benchmark_name(point);
  }
}

TEST(LaunchPoints, PlainAndGraphAtSmallSizesInTheFullSuiteWhereNcclChooses) {
  EXPECT_TRUE(launch_points(Suite::Quick, kAuto).empty());
  EXPECT_TRUE(launch_points(Suite::Full, kRingSimple).empty()) << "ids name no combination: one process has them";
  const std::vector<LaunchPoint> points = launch_points(Suite::Full, kAuto);
  ASSERT_EQ(points.size(), 7u * 4 * 2);
  std::set<std::size_t> sizes;
  for (const LaunchPoint& point : points) sizes.insert(point.bytes);
  EXPECT_EQ(sizes, (std::set<std::size_t>{8, 256, 4 * kKiB, 64 * kKiB}));
  EXPECT_EQ(launch_benchmark_name({Collective::Broadcast, 4 * kKiB, Launch::Graph}), "nccl/broadcast/graph/4KiB");
  EXPECT_EQ(launch_benchmark_name({Collective::AllReduce, 8, Launch::Plain}), "nccl/allreduce/plain/8B");
}

TEST(NcclSizeNames, SizesInTheLargestWholeBinaryUnit) {
  EXPECT_EQ(size_name(8), "8B");
  EXPECT_EQ(size_name(512), "512B");
  EXPECT_EQ(size_name(1024), "1KiB");
  EXPECT_EQ(size_name(262144), "256KiB");
  EXPECT_EQ(size_name(std::size_t{1} << 20), "1MiB");
  EXPECT_EQ(size_name(kGiB), "1GiB");
  EXPECT_EQ(size_name(4 * kGiB), "4GiB");
  EXPECT_EQ(size_name(1536), "1536B");
}

TEST(CallsPerSample, SmallCallsAreTimedSeveralToASample) {
  EXPECT_EQ(calls_per_sample(8, 2, Placement::OutOfPlace), 16);
  EXPECT_EQ(calls_per_sample(std::size_t{1} << 20, 2, Placement::OutOfPlace), 16);
  EXPECT_EQ(calls_per_sample(std::size_t{2} << 20, 2, Placement::OutOfPlace), 4);
  EXPECT_EQ(calls_per_sample(std::size_t{16} << 20, 2, Placement::OutOfPlace), 2);
  EXPECT_EQ(calls_per_sample(std::size_t{64} << 20, 2, Placement::OutOfPlace), 1);
  EXPECT_EQ(calls_per_sample(kGiB, 2, Placement::InPlace), 1);
}

TEST(CallsPerSample, InPlaceChainsNoMoreCallsThanAFloatCanGrow) {
  EXPECT_EQ(calls_per_sample(8, 2, Placement::InPlace), 16);
  EXPECT_EQ(calls_per_sample(8, 72, Placement::InPlace), 16);   // 72^16 = 5e29
  EXPECT_EQ(calls_per_sample(8, 1024, Placement::InPlace), 9);  // 1024^9 = 1.2e27
  for (int ranks : {2, 8, 100, 4096, 1 << 20}) {
    const int calls = calls_per_sample(64, ranks, Placement::InPlace);
    EXPECT_GE(calls, 1);
    EXPECT_LT(calls * std::log10(static_cast<double>(ranks)), 30.5) << ranks;  // 1.5 x ranks^calls < FLT_MAX
  }
}

}  // namespace
}  // namespace gpubench
