#pragma once
// `gpubench compare`: several runs side by side, one column per run, ratios against the first. Works across
// GPU models: only metrics every run has are compared; the others are listed. Its formats are console_report's
// and json_report's.
#include <string>
#include <vector>

#include "harness/baseline/baseline_builder.hpp"

namespace gpubench {

struct ComparisonRow {
  std::string metric;
  std::string unit;
  Better better = Better::Higher;
  std::vector<double> values;  // one per run
  std::vector<double> ratios;  // value / first run's value
};

struct Comparison {
  std::vector<std::string> labels;  // "host / GPU model"
  std::vector<ComparisonRow> rows;
  std::vector<std::string> not_shared;  // "metric (only in: label, label)"
};

// `filter`: regex searched in metric ids (empty: all). `sort_by`: "metric" or "ratio" (largest change from
// the first run first). Throws std::invalid_argument for a bad regex or sort key.
Comparison compare_runs(const std::vector<SourcedResults>& runs, const std::string& filter, const std::string& sort_by);

}  // namespace gpubench
