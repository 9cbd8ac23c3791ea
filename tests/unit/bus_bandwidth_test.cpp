// algbw and busbw of every collective, against figures worked by hand from nccl-tests' definitions
// (doc/PERFORMANCE.md): algbw = S / t, busbw = algbw x factor(n).
#include "benchmarks/nccl/bus_bandwidth.hpp"

#include <gtest/gtest.h>

#include "benchmarks/nccl/collective_table.hpp"

namespace gpubench {
namespace {

constexpr double kGiB = 1073741824.0;

TEST(BusBandwidth, AlgorithmBandwidthIsBytesOverTimeInDecimalGigabytes) {
  EXPECT_DOUBLE_EQ(algorithm_bandwidth_gbps(1e9, 1.0), 1.0);
  EXPECT_NEAR(algorithm_bandwidth_gbps(kGiB, 3.2735e-3), 328.01, 0.001);
}

TEST(BusBandwidth, NonPositiveTimeGivesZeroRatherThanInfinity) {
  EXPECT_EQ(algorithm_bandwidth_gbps(1024, 0.0), 0.0);
  EXPECT_EQ(algorithm_bandwidth_gbps(1024, -1.0), 0.0);
  for (Collective collective : kEveryCollective) EXPECT_EQ(bus_bandwidth_gbps(collective, 1024, 0.0, 2), 0.0);
}

TEST(BusBandwidth, FactorPerCollective) {
  // 8 ranks: all-reduce 2 x 7/8, the gather and scatter kinds 7/8, the rest 1.
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllReduce, 8), 1.75);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllGather, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::ReduceScatter, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllToAll, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::Broadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::Reduce, 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::SendRecv, 8), 1.0);
  // 2 ranks: all-reduce 1, the gather and scatter kinds 1/2.
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllReduce, 2), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllGather, 2), 0.5);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllToAll, 2), 0.5);
  // 3 ranks: 4/3 and 2/3.
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllReduce, 3), 4.0 / 3.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::ReduceScatter, 3), 2.0 / 3.0);
}

TEST(BusBandwidth, OneRankMovesNothingAndNoRankHasNoFactor) {
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllReduce, 1), 0.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllGather, 1), 0.0);
  for (Collective collective : kEveryCollective) EXPECT_DOUBLE_EQ(bus_factor(collective, 0), 0.0);
}

TEST(BusBandwidth, AllReduceMatchesNcclTestsArithmetic) {
  // 8 GPUs: 1 GiB in 5.0 ms is algbw 214.748 GB/s, busbw 214.748 x 1.75 = 375.809 GB/s.
  EXPECT_NEAR(algorithm_bandwidth_gbps(kGiB, 5e-3), 214.748, 1e-3);
  EXPECT_NEAR(bus_bandwidth_gbps(Collective::AllReduce, kGiB, 5e-3, 8), 375.809, 1e-3);
  // On two GPUs busbw equals algbw.
  EXPECT_DOUBLE_EQ(bus_bandwidth_gbps(Collective::AllReduce, kGiB, 5e-3, 2), algorithm_bandwidth_gbps(kGiB, 5e-3));
}

// S for each collective is its larger buffer, as the table lays the buffers out (call_shape).
double worked_busbw(Collective collective, std::size_t bytes, double seconds, int ranks) {
  const CallShape shape = call_shape(collective_spec(collective), bytes, ranks);
  return bus_bandwidth_gbps(collective, static_cast<double>(shape.bytes()), seconds, ranks);
}

TEST(BusBandwidth, EveryCollectiveByHandAt1GiBIn4Milliseconds) {
  // algbw = 2^30 B / 4 ms = 268.435456 GB/s whatever the collective: S is 1 GiB for each.
  const double algbw = 268.435456;
  // 4 ranks. All-gather: each rank sends 256 MiB and receives the 1 GiB of all four blocks; busbw = 3/4 algbw.
  EXPECT_NEAR(worked_busbw(Collective::AllGather, std::size_t{1} << 30, 4e-3, 4), 201.326592, 1e-6);
  // Reduce-scatter: each rank sends 1 GiB and keeps a 256 MiB block; 3/4 algbw.
  EXPECT_NEAR(worked_busbw(Collective::ReduceScatter, std::size_t{1} << 30, 4e-3, 4), 201.326592, 1e-6);
  // All-to-all: 256 MiB to each of four ranks (itself included); 3/4 algbw.
  EXPECT_NEAR(worked_busbw(Collective::AllToAll, std::size_t{1} << 30, 4e-3, 4), 201.326592, 1e-6);
  // All-reduce: 2 x 3/4.
  EXPECT_NEAR(worked_busbw(Collective::AllReduce, std::size_t{1} << 30, 4e-3, 4), 402.653184, 1e-6);
  // Broadcast, reduce, send/recv: busbw = algbw.
  for (Collective collective : {Collective::Broadcast, Collective::Reduce, Collective::SendRecv}) {
    EXPECT_NEAR(worked_busbw(collective, std::size_t{1} << 30, 4e-3, 4), algbw, 1e-6);
  }
}

TEST(BusBandwidth, EveryCollectiveByHandAt1GiBIn4MillisecondsOnEightRanks) {
  // Eight ranks, S = 1 GiB (2^28 floats split into 8 blocks of 2^25 where a buffer has one block per rank, so
  // nothing is rounded off): algbw = 2^30 B / 4 ms = 268.435456 GB/s for every collective.
  const double algbw = 268.435456;
  for (Collective collective : kEveryCollective) {
    const CallShape shape = call_shape(collective_spec(collective), std::size_t{1} << 30, 8);
    EXPECT_EQ(shape.bytes(), std::size_t{1} << 30) << collective_id_name(collective);
    EXPECT_NEAR(algorithm_bandwidth_gbps(static_cast<double>(shape.bytes()), 4e-3), algbw, 1e-9);
  }
  // All-reduce: 2 x 7/8 = 1.75, busbw 469.762048 GB/s.
  EXPECT_NEAR(worked_busbw(Collective::AllReduce, std::size_t{1} << 30, 4e-3, 8), 469.762048, 1e-6);
  // All-gather, reduce-scatter, all-to-all: each rank receives (or sends) the 7 blocks of 128 MiB that are not its
  // own, 7/8 of S: busbw 234.881024 GB/s.
  for (Collective collective : {Collective::AllGather, Collective::ReduceScatter, Collective::AllToAll}) {
    EXPECT_NEAR(worked_busbw(collective, std::size_t{1} << 30, 4e-3, 8), 234.881024, 1e-6) << collective_id_name(collective);
  }
  // Broadcast, reduce, send/recv: S over every link once, busbw = algbw.
  for (Collective collective : {Collective::Broadcast, Collective::Reduce, Collective::SendRecv}) {
    EXPECT_NEAR(worked_busbw(collective, std::size_t{1} << 30, 4e-3, 8), algbw, 1e-6) << collective_id_name(collective);
  }
}

TEST(BusBandwidth, FourRanksFactors) {
  // 2 x 3/4 and 3/4.
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllReduce, 4), 1.5);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllGather, 4), 0.75);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::ReduceScatter, 4), 0.75);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllToAll, 4), 0.75);
  for (Collective collective : {Collective::Broadcast, Collective::Reduce, Collective::SendRecv}) {
    EXPECT_DOUBLE_EQ(bus_factor(collective, 4), 1.0);
  }
}

TEST(BusBandwidth, SIsRoundedDownToWholeBlocksAsNcclTestsDoes) {
  // 3 ranks, 1 KiB all-gather: 256 floats give blocks of 85, so S = 255 floats = 1020 B; in 10 us algbw is
  // 0.102 GB/s and busbw 2/3 of it, 0.068.
  EXPECT_NEAR(worked_busbw(Collective::AllGather, 1024, 10e-6, 3), 0.068, 1e-12);
}

TEST(BusBandwidth, EightRanksRoundSDownToWholeBlocksToo) {
  // 1000 B all-to-all among 8 ranks: 250 floats give blocks of 31, S = 248 floats = 992 B; in 10 us algbw is
  // 0.0992 GB/s and busbw 7/8 of it, 0.0868. 8 B all-gather: 2 floats cannot make 8 blocks, so no call (a skip).
  EXPECT_EQ(call_shape(collective_spec(Collective::AllToAll), 1000, 8).bytes(), 992u);
  EXPECT_NEAR(worked_busbw(Collective::AllToAll, 1000, 10e-6, 8), 0.0868, 1e-12);
  EXPECT_EQ(call_shape(collective_spec(Collective::AllGather), 8, 8).block, 0u);
  EXPECT_EQ(call_shape(collective_spec(Collective::AllReduce), 8, 8).block, 2u) << "one block: the whole 8 B";
}

TEST(BusBandwidth, UsableInConstantExpressions) {
  static_assert(bus_factor(Collective::AllReduce, 2) == 1.0);
  static_assert(bus_factor(Collective::AllGather, 4) == 0.75);
  static_assert(algorithm_bandwidth_gbps(2e9, 2.0) == 1.0);
  SUCCEED();
}

}  // namespace
}  // namespace gpubench
