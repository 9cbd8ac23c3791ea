// MetricId reads the parts of a metric id by hand: family, benchmark, the one GPU or the pair of GPUs it is of.
// Odd ids from a hand-edited or hostile file are no GPU metric, never a crash or an exception.
#include "benchmarks/common/metric_id.hpp"

#include <gtest/gtest.h>

#include <string>

namespace gpubench {
namespace {

TEST(MetricId, IsTheBenchmarkAndTheFigure) {
  const MetricId id("memory/triad/1GiB/gpu3", "bandwidth");
  EXPECT_EQ(id.text(), "memory/triad/1GiB/gpu3/bandwidth");
  EXPECT_EQ(id.family(), "memory");
  EXPECT_EQ(id.benchmark(), "memory/triad/1GiB/gpu3");
  EXPECT_EQ(MetricId(std::string("loose")).family(), "loose");
  EXPECT_EQ(MetricId(std::string("loose")).benchmark(), "loose");
}

TEST(MetricId, SplitsTheGpuOutOfAnId) {
  EXPECT_EQ(MetricId(std::string("memory/triad/1GiB/gpu3/bandwidth")).with_any_gpu(), "memory/triad/1GiB/gpu*/bandwidth");
  EXPECT_EQ(*MetricId(std::string("memory/triad/1GiB/gpu3/bandwidth")).gpu(), 3);
  EXPECT_FALSE(MetricId(std::string("nccl/allreduce/ring/simple/1GiB/busbw")).gpu().has_value());
  EXPECT_EQ(MetricId(std::string("nccl/allreduce/ring/simple/1GiB/busbw")).with_any_gpu(), "nccl/allreduce/ring/simple/1GiB/busbw");
  EXPECT_EQ(*MetricId(std::string("pcie/h2d/pinned/1GiB/gpu12")).gpu(), 12);
}

TEST(MetricId, AnIdTooOddForAGpuIndexIsNoGpuMetric) {
  EXPECT_FALSE(MetricId(std::string("memory/read/gpu99999999999/bandwidth")).gpu().has_value());
  EXPECT_FALSE(MetricId("memory/read/gpu" + std::string(50000, '9')).gpu().has_value());
  EXPECT_FALSE(MetricId(std::string("gpu3/read")).gpu().has_value()) << "the first segment is the family";
  EXPECT_FALSE(MetricId(std::string("memory/gpu3x/read")).gpu().has_value());
  EXPECT_EQ(MetricId(std::string("memory/gpu1234567/gpu2/read")).with_any_gpu(), "memory/gpu1234567/gpu*/read");
  EXPECT_FALSE(MetricId(std::string(50000, 'x')).gpu().has_value());
}

TEST(MetricId, SplitsThePairOutOfAnId) {
  const MetricId id(std::string("p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth"));
  ASSERT_TRUE(id.gpu_pair().has_value());
  EXPECT_EQ(id.gpu_pair()->first, 0);
  EXPECT_EQ(id.gpu_pair()->second, 1);
  EXPECT_EQ(id.with_any_pair(), "p2p/ce_unidir/1GiB/*/bandwidth");
  EXPECT_FALSE(id.gpu().has_value()) << "a pair is not one GPU";
  for (const std::string& odd : {std::string("p2p/x/gpu1234567-gpu0/bandwidth"), std::string("p2p/x/gpu0-gpu1-gpu2/bandwidth"),
                                 std::string("gpu0-gpu1/bandwidth"), std::string("p2p/x/gpu0-gpu1/"),
                                 "p2p/x/gpu0-gpu" + std::string(50000, '1') + "/bandwidth"}) {
    EXPECT_FALSE(MetricId(odd).gpu_pair().has_value()) << odd.substr(0, 60);
    EXPECT_EQ(MetricId(odd).with_any_pair(), odd);
  }
}

}  // namespace
}  // namespace gpubench
