#pragma once
// `gpubench history`: per node and metric, the series over time from a directory of results documents, its change
// points, and what changed in the environment between the two sides of each. A node is its host name and its GPUs'
// UUIDs: host names repeat (every lent VM is "vm"), GPUs do not. A change point is reported only past the figure's
// tolerance (its family's default, tolerances.hpp): a change the permutation test finds significant but smaller than
// what a check would call a change has no practical effect.
#include <string>
#include <vector>

#include "harness/baseline/baseline_builder.hpp"
#include "harness/verdict/change_points.hpp"

namespace gpubench {

struct HistoryChange {
  std::string host;
  std::string node;  // "vm (GPU-93520...)": the host and its GPUs' UUIDs, shortened
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
  double tolerance = 0;  // the figure's, relative: the change is past it
  // "another process (pid 4242, python3, 20.0 GiB) used GPU 0 during gemm" in the first run after the change
  // (contention.hpp); "" when none was recorded.
  std::string contention;
};

struct HistoryReport {
  int runs = 0;
  int series = 0;
  int nodes = 0;
  std::size_t longest_series = 0;  // the most runs of one node that hold one figure
  std::size_t runs_needed = 0;     // fewest_runs_to_find_a_change
  int within_tolerance = 0;        // change points found but no larger than the figure's tolerance: not reported
  std::vector<HistoryChange> changes;  // by date
};

// What differs between two runs' environments: versions, gpubench build, and per GPU the clocks, power
// limit, ECC, PCIe link and model; plus result-changing variables.
std::vector<std::string> environment_differences(const ResultsDocument& before, const ResultsDocument& after);

HistoryReport analyse_history(std::vector<SourcedResults> runs, const ChangePointOptions& options = {});

}  // namespace gpubench
