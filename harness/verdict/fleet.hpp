#pragma once
// Fleet outliers: runs from many nodes of one kind, each node's figures against the fleet median, and within
// each node each GPU against its siblings. Only the worse side is flagged: a fast node is not a problem. The fleet
// follows a baseline's rules (baselines/README.md): host-bound figures are not judged, nor are the figures the node
// kind's baseline does not gate, and noise comes from the runs' repetitions as well as from the nodes' spread.
#include <optional>
#include <string>
#include <vector>

#include "harness/baseline/baseline_builder.hpp"

namespace gpubench {

struct FleetFinding {
  std::string scope;  // "node": against the fleet; "gpu": against the other GPUs of the same node
  std::string host;
  std::string source;  // the results file
  std::optional<int> gpu;
  std::string metric;
  double value = 0;
  double reference = 0;  // fleet median, or the median of the node's other GPUs
  double deviation = 0;  // (value - reference) / reference
  double noise = 0;      // how far noise alone moves it, relative to the reference
  std::string unit;
  std::string reason;
};

// Why a figure is shown but not judged by the fleet.
enum class FleetUnjudged {
  HostBound,     // the catalogue's node_bound figures: they measure the host as much as the GPU
  NotGating,     // the node kind's baseline does not gate it: too noisy between runs
  TooFewNodes,   // measured by fewer than 3 runs: no fleet median to hold it against
};

// "host_bound", "not_gating", "too_few_nodes".
std::string to_string(FleetUnjudged why);

struct UnjudgedFleetFigure {
  std::string metric;
  FleetUnjudged why = FleetUnjudged::HostBound;
  std::string reason;
  bool decides_acceptance = false;  // one of the catalogue's acceptance figures (acceptance_filter)
};

struct FleetReport {
  int nodes = 0;  // runs
  int hosts = 0;  // distinct host names among the runs
  // Distinct nodes, told apart by their GPUs' UUIDs (two runs sharing a GPU are one node; hostnames repeat: every
  // lent VM is "vm"); a run that names no GPU UUID counts by its host name.
  int distinct_nodes = 0;
  bool kind_baseline = false;  // whether the node kind's baseline lent its gating and spreads
  int metrics_compared = 0;    // figures judged against the fleet median
  std::vector<FleetFinding> findings;      // outliers, worst first: worse past the tolerance and the noise; each fails
  std::vector<FleetFinding> within_noise;  // worse past the tolerance but within the noise: shown, never failing
  std::vector<UnjudgedFleetFigure> unjudged;  // in id order

  int unjudged_count(FleetUnjudged why) const;
};

// A node is an outlier on a figure when it is worse than the fleet median (3 runs or more) by more than the
// tolerance and by more than the noise: 3 x the spread of one node's value (the largest of 1.4826 x MAD of the
// fleet's values, the median of the runs' median_standard_error, and the kind baseline's run-to-run spread relative
// to its expected value, scaled to the fleet median), combined as check combines them with 3 x this run's own
// median_standard_error. A GPU is an outlier when it is worse than the median of its node's other GPUs by more than
// the tolerance and the same noise, the spread between nodes left out. The tolerance is the kind baseline's where it
// has the figure, else the catalogue's. Host-bound figures, and those `kind_baseline` (nullptr: none found) does
// not gate, are not judged: they are listed in `unjudged` with the reason.
FleetReport analyse_fleet(const std::vector<SourcedResults>& runs, const Baseline* kind_baseline = nullptr);

}  // namespace gpubench
