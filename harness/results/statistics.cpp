#include "harness/results/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace gpubench {

double student_t_three_sigma(int degrees_of_freedom) {
  if (degrees_of_freedom < 1) throw std::invalid_argument("t quantile needs 1 or more degrees of freedom");
  // scipy.stats.t.isf(0.00135, df) for df = 1..30.
  static constexpr double kTable[] = {235.7837, 19.2060, 9.2187, 6.6201, 5.5070, 4.9040, 4.5299, 4.2766, 4.0942, 3.9569,
                                      3.8499,   3.7642,  3.6941, 3.6358, 3.5864, 3.5441, 3.5075, 3.4754, 3.4472, 3.4221,
                                      3.3997,   3.3795,  3.3613, 3.3447, 3.3296, 3.3158, 3.3030, 3.2913, 3.2804, 3.2703};
  constexpr int kTabulated = sizeof kTable / sizeof kTable[0];
  if (degrees_of_freedom <= kTabulated) return kTable[degrees_of_freedom - 1];
  // Beyond the table the quantile is close to linear in 1/df, down to the normal 3.0: within 0.2 % of scipy's.
  constexpr double kNormal = 3.0;
  return kNormal + (kTable[kTabulated - 1] - kNormal) * kTabulated / degrees_of_freedom;
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

double median_standard_error(const SampleStatistics& repetitions) {
  return kMedianEfficiency * kMadToSigma * repetitions.mad / std::sqrt(static_cast<double>(std::max<std::size_t>(repetitions.count, 1)));
}

}  // namespace gpubench
