#pragma once
// `gpubench history`: per host and metric, the series over time from a directory of results documents,
// its change points, and what changed in the environment between the two sides of each.
#include <string>
#include <vector>

#include "harness/baseline/baseline_builder.hpp"
#include "harness/verdict/change_points.hpp"

namespace gpubench {

struct HistoryChange {
  std::string host;
  std::string metric;
  std::string unit;
  std::string date;          // started_at of the first run after the change
  std::string last_before;   // run id just before, and first after
  std::string first_after;
  std::size_t index = 0;     // position in the host's series
  std::size_t points = 0;    // length of the series
  double before = 0;         // medians of the two sides
  double after = 0;
  double relative_change = 0;
  double confidence = 0;     // 1 - permutation p-value
  bool worse = false;
  std::vector<std::string> environment_changes;  // "driver 550.54 -> 580.159"
};

struct HistoryReport {
  int runs = 0;
  int series = 0;
  std::vector<HistoryChange> changes;  // by date
};

// What differs between two runs' environments: versions, gpubench build, and per GPU the clocks, power
// limit, ECC, PCIe link and model; plus result-changing variables.
std::vector<std::string> environment_differences(const ResultsDocument& before, const ResultsDocument& after);

HistoryReport analyse_history(std::vector<SourcedResults> runs, const ChangePointOptions& options = {});

}  // namespace gpubench
