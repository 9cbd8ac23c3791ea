#pragma once
// Summary statistics of repeated measurements. The median and the MAD are the robust pair used for
// decisions; mean and standard deviation are kept for readers used to them.
#include <cstddef>
#include <vector>

#include "benchmarks/common/median.hpp"

namespace gpubench {

struct SampleStatistics {
  std::size_t count = 0;
  double median = 0;
  double mean = 0;
  double min = 0;
  double max = 0;
  double stddev = 0;  // sample standard deviation (n - 1)
  double mad = 0;     // median absolute deviation from the median, unscaled
  double cv = 0;      // stddev / mean
};

// 1.4826 x MAD estimates the standard deviation of normally distributed data, and ignores outliers.
inline constexpr double kMadToSigma = 1.4826;
// The standard error of the median of n normal samples is about 1.2533 sigma / sqrt(n).
inline constexpr double kMedianEfficiency = 1.2533;

// How much the median of these repetitions moves from run to run, judged from the repetitions alone:
// kMedianEfficiency x 1.4826 x MAD / sqrt(count).
double median_standard_error(const SampleStatistics& repetitions);

// Student's t quantile with `degrees_of_freedom` whose upper tail holds p = 0.00135, the tail beyond 3 sigma
// of a normal distribution. With a standard deviation estimated from n runs (n - 1 degrees of freedom), t x s
// x sqrt(1 + 1/n) bounds one new run as 3 sigma would if the spread were known: 19.21 for 2 degrees of
// freedom, 6.62 for 4, 4.09 for 9, 3.27 for 30, tending to 3.0. Throws std::invalid_argument below 1.
double student_t_three_sigma(int degrees_of_freedom);

// Throws std::invalid_argument on an empty set.
SampleStatistics summarize(const std::vector<double>& samples);

}  // namespace gpubench
