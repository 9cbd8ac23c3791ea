#include "harness/results/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>

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

// Against scipy.stats.t.isf(0.00135, df).
TEST(Statistics, StudentTForTheThreeSigmaTail) {
  EXPECT_NEAR(student_t_three_sigma(1), 235.78, 0.01);
  EXPECT_NEAR(student_t_three_sigma(2), 19.206, 0.001);
  EXPECT_NEAR(student_t_three_sigma(4), 6.620, 0.001);
  EXPECT_NEAR(student_t_three_sigma(9), 4.094, 0.001);
  EXPECT_NEAR(student_t_three_sigma(30), 3.270, 0.001);
  EXPECT_NEAR(student_t_three_sigma(40), 3.1987, 0.005) << "past the table";
  EXPECT_NEAR(student_t_three_sigma(120), 3.0637, 0.005);
  EXPECT_NEAR(student_t_three_sigma(100000), 3.0, 0.001) << "tends to the normal 3 sigma";
  EXPECT_GT(student_t_three_sigma(30), student_t_three_sigma(31)) << "falls steadily across the table's end";
  EXPECT_THROW(student_t_three_sigma(0), std::invalid_argument);
}

TEST(Statistics, SingleSampleHasNoSpread) {
  const SampleStatistics s = summarize({4.2});
  EXPECT_DOUBLE_EQ(s.median, 4.2);
  EXPECT_DOUBLE_EQ(s.stddev, 0);
  EXPECT_DOUBLE_EQ(s.mad, 0);
}

// What a run's median says of its own noise: the standard error of a median of three, not one repetition's spread.
TEST(Statistics, MedianStandardErrorShrinksWithRepetitions) {
  EXPECT_NEAR(median_standard_error(summarize({1, 2, 3})), 1.2533 * 1.4826 / std::sqrt(3.0), 1e-9);
  EXPECT_NEAR(median_standard_error(summarize({1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3})), 1.2533 * 1.4826 / std::sqrt(12.0), 1e-9);
  EXPECT_EQ(median_standard_error(summarize({5})), 0);
}

}  // namespace
}  // namespace gpubench
