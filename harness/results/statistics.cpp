#include "harness/results/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace gpubench {

double median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of no values");
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + mid);
  return (lower + upper) / 2;
}

SampleStatistics summarize(const std::vector<double>& samples) {
  if (samples.empty()) throw std::invalid_argument("statistics of no samples");
  SampleStatistics s;
  s.count = samples.size();
  s.median = median(samples);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / s.count;
  const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  s.min = *lo;
  s.max = *hi;
  if (s.count > 1) {
    double squares = 0;
    for (double x : samples) squares += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(squares / (s.count - 1));
  }
  std::vector<double> deviations;
  deviations.reserve(samples.size());
  for (double x : samples) deviations.push_back(std::fabs(x - s.median));
  s.mad = median(deviations);
  s.cv = s.mean != 0 ? s.stddev / std::fabs(s.mean) : 0;
  return s;
}

}  // namespace gpubench
