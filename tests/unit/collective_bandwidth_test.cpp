#include "benchmarks/common/collective_bandwidth.hpp"

#include <gtest/gtest.h>

namespace gpubench {
namespace {

TEST(CollectiveBandwidth, AlgorithmBandwidthIsBytesOverTimeInDecimalGigabytes) {
  EXPECT_DOUBLE_EQ(algorithm_bandwidth_gbps(1e9, 1.0), 1.0);
  EXPECT_NEAR(algorithm_bandwidth_gbps(1073741824.0, 3.2735e-3), 328.01, 0.001);
}

TEST(CollectiveBandwidth, NonPositiveTimeGivesZeroRatherThanInfinity) {
  EXPECT_EQ(algorithm_bandwidth_gbps(1024, 0.0), 0.0);
  EXPECT_EQ(algorithm_bandwidth_gbps(1024, -1.0), 0.0);
  EXPECT_EQ(allreduce_bus_bandwidth_gbps(1024, 0.0, 2), 0.0);
}

TEST(CollectiveBandwidth, AllReduceBusFactorIsTwoTimesNMinusOneOverN) {
  EXPECT_DOUBLE_EQ(allreduce_bus_factor(1), 0.0);  // one rank moves nothing
  EXPECT_DOUBLE_EQ(allreduce_bus_factor(2), 1.0);
  EXPECT_DOUBLE_EQ(allreduce_bus_factor(4), 1.5);
  EXPECT_DOUBLE_EQ(allreduce_bus_factor(8), 1.75);
  EXPECT_DOUBLE_EQ(allreduce_bus_factor(0), 0.0);
}

TEST(CollectiveBandwidth, BusBandwidthMatchesNcclTestsArithmetic) {
  // nccl-tests on 8 GPUs: 1 GiB in 5.0 ms is algbw 214.75 GB/s, busbw 375.8 GB/s.
  const double bytes = 1073741824.0;
  EXPECT_NEAR(algorithm_bandwidth_gbps(bytes, 5e-3), 214.748, 1e-3);
  EXPECT_NEAR(allreduce_bus_bandwidth_gbps(bytes, 5e-3, 8), 375.809, 1e-3);
  // On two GPUs busbw equals algbw.
  EXPECT_DOUBLE_EQ(allreduce_bus_bandwidth_gbps(bytes, 5e-3, 2), algorithm_bandwidth_gbps(bytes, 5e-3));
}

TEST(CollectiveBandwidth, UsableInConstantExpressions) {
  static_assert(allreduce_bus_factor(2) == 1.0);
  static_assert(algorithm_bandwidth_gbps(2e9, 2.0) == 1.0);
  SUCCEED();
}

}  // namespace
}  // namespace gpubench
