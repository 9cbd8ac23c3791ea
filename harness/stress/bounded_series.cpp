#include "harness/stress/bounded_series.hpp"

#include <algorithm>
#include <cmath>

namespace gpubench {

BoundedLayout bounded_layout(const std::vector<double>& times) {
  BoundedLayout layout;
  if (times.empty()) return layout;
  const double recent_from = times.back() - kRecentSeconds;
  while (layout.first_recent < times.size() && times[layout.first_recent] < recent_from) ++layout.first_recent;
  if (times.size() - layout.first_recent > kMostRecentEntries) layout.first_recent = times.size() - kMostRecentEntries;
  if (layout.first_recent == 0) return layout;
  // Long enough that the first recent entry's time falls before the end of bucket kMostBuckets, so that no earlier
  // entry lies past it.
  const double cut = std::max(0.0, times[layout.first_recent]);
  const double span = kShortestBucketS * (std::floor(cut / (kShortestBucketS * kMostBuckets)) + 1);
  for (std::size_t i = 0; i < layout.first_recent; ++i) {
    const double start = span * std::floor(std::max(0.0, times[i]) / span);
    if (layout.buckets.empty() || start > layout.buckets.back().start_s) layout.buckets.push_back({start, span, i, i});
    layout.buckets.back().end = i + 1;
  }
  return layout;
}

std::vector<double> bounded_values(const std::vector<double>& times, const std::vector<double>& values) {
  const BoundedLayout layout = bounded_layout(times);
  std::vector<double> kept;
  for (const Bucket& bucket : layout.buckets) {
    double sum = 0;
    for (std::size_t i = bucket.begin; i < bucket.end; ++i) sum += values[i];
    kept.push_back(sum / static_cast<double>(bucket.end - bucket.begin));
  }
  kept.insert(kept.end(), values.begin() + static_cast<std::ptrdiff_t>(layout.first_recent), values.end());
  return kept;
}

}  // namespace gpubench
