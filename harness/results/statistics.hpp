#pragma once
// Summary statistics of repeated measurements. The median and the MAD are the robust pair used for
// decisions; mean and standard deviation are kept for readers used to them.
#include <cstddef>
#include <vector>

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

double median(std::vector<double> values);
// Throws std::invalid_argument on an empty set.
SampleStatistics summarize(const std::vector<double>& samples);

}  // namespace gpubench
