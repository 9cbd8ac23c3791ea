#pragma once
// `gpubench compare`: several runs side by side, one column per run, ratios against the first. Works across
// GPU models: only metrics every run has are compared; the others are listed. Each later run's value is judged
// against the first's: better or worse by the metric's own direction, and whether the difference stands out of
// the repetitions' noise by a two-sided Mann-Whitney U test, as Google Benchmark's tools/compare.py judges it.
// Its formats are console_report's and json_report's.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/baseline/baseline_builder.hpp"
#include "harness/report/run_label.hpp"

namespace gpubench {

// A difference is beyond the noise below this p-value (compare.py's default alpha).
inline constexpr double kNoiseAlpha = 0.05;
// No test with fewer repetitions than this on either side (compare.py tests from 2 and warns below 9): with 3
// against 3, even runs that do not overlap at all give p = 0.1 (2 of the 20 orderings are as extreme).
inline constexpr std::size_t kFewestRepetitionsToTest = 4;

// A run and its column in the table.
struct ComparedRun {
  std::string key;  // "[1]", "[2]", ...
  RunLabel label;
};

enum class Direction { Better, Worse, Same };
const char* to_string(Direction direction);

enum class Noise { Beyond, Within, TooFewRepetitions };
const char* to_string(Noise noise);  // "beyond", "within", "too_few_repetitions"

// One later run's value against the first run's.
struct Difference {
  Direction direction = Direction::Same;
  Noise noise = Noise::TooFewRepetitions;
  std::optional<double> p_value;  // absent with too few repetitions
  std::size_t first_repetitions = 0;
  std::size_t repetitions = 0;
};

struct ComparisonRow {
  std::string metric;
  std::string unit;
  Better better = Better::Higher;
  std::vector<double> values;  // one per run
  std::vector<double> ratios;  // one per run: value / first run's value
  std::vector<Difference> against_first;  // one per later run: against_first[r - 1] is run r's
};

struct Comparison {
  std::vector<ComparedRun> runs;
  std::vector<ComparisonRow> rows;
  std::vector<std::string> not_shared;  // "metric (only in: [1], [3])"
};

// Whether `later` differs from `first` beyond their repetitions' noise, and which way is better.
Difference difference_between(const Metric& first, const Metric& later);

// `filter`: regex searched in metric ids (empty: all). `sort_by`: "metric" or "ratio" (largest change from
// the first run first). Throws std::invalid_argument for a bad regex or sort key.
Comparison compare_runs(const std::vector<SourcedResults>& runs, const std::string& filter, const std::string& sort_by);

}  // namespace gpubench
