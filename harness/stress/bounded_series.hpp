#pragma once
// How a stress document keeps a series of any length in a bounded size (docs/results-schema.md, `stress`). A run
// records a telemetry reading a second per GPU, a throughput window every 5 s and up to a hundred pulse bursts a
// second: a month on eight GPUs would be gigabytes as recorded. So a series keeps the entries of its last day as
// recorded (at most kMostRecentEntries of them) and folds the earlier ones into at most kMostBuckets buckets of
// equal length, a whole number of minutes counted from the start of the run. A run of a day or less is kept whole.
// The verdict rules read every entry, before any of this.
#include <cstddef>
#include <vector>

namespace gpubench {

inline constexpr double kRecentSeconds = 86400;
inline constexpr std::size_t kMostRecentEntries = 86400;  // a day of telemetry at a reading a second
inline constexpr std::size_t kMostBuckets = 4320;         // a month in buckets of 10 minutes
inline constexpr double kShortestBucketS = 60;

// The entries [begin, end) of a series, recorded from start_s to start_s + span_s.
struct Bucket {
  double start_s = 0;
  double span_s = 0;
  std::size_t begin = 0;
  std::size_t end = 0;
};

struct BoundedLayout {
  std::vector<Bucket> buckets;   // the earlier entries, in order; none when the series is short
  std::size_t first_recent = 0;  // the entries from this one on are kept as recorded
};

// `times`: each entry's seconds since the start of the run, in the order recorded (not decreasing; an entry earlier
// than the one before it joins that one's bucket).
BoundedLayout bounded_layout(const std::vector<double>& times);

// `values` kept as bounded_layout keeps them: the recent ones as recorded, each bucket as the mean of its values.
std::vector<double> bounded_values(const std::vector<double>& times, const std::vector<double>& values);

}  // namespace gpubench
