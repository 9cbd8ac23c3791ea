#include "harness/results/statistics.hpp"

#include <gtest/gtest.h>

namespace gpubench {
namespace {

TEST(Statistics, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_THROW(median({}), std::invalid_argument);
}

TEST(Statistics, SummaryOfKnownSamples) {
  const SampleStatistics s = summarize({10, 12, 11, 13, 100});
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.median, 12);
  EXPECT_DOUBLE_EQ(s.min, 10);
  EXPECT_DOUBLE_EQ(s.max, 100);
  EXPECT_DOUBLE_EQ(s.mean, 29.2);
  // |x - 12| = 2, 0, 1, 1, 88 -> median 1: the outlier does not move the MAD.
  EXPECT_DOUBLE_EQ(s.mad, 1);
  EXPECT_NEAR(s.stddev, 39.6, 0.05);
}

TEST(Statistics, SingleSampleHasNoSpread) {
  const SampleStatistics s = summarize({4.2});
  EXPECT_DOUBLE_EQ(s.median, 4.2);
  EXPECT_DOUBLE_EQ(s.stddev, 0);
  EXPECT_DOUBLE_EQ(s.mad, 0);
}

}  // namespace
}  // namespace gpubench
