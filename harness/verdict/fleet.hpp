#pragma once
// Fleet outliers: runs from many nodes of one kind, each node's figures against the fleet median, and within
// each node each GPU against its siblings. Only the worse side is flagged: a fast node is not a problem.
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
  std::string unit;
  std::string reason;
};

struct FleetReport {
  int nodes = 0;
  int hosts = 0;  // distinct hosts among the runs: one means the "nodes" are runs of one machine
  int metrics_compared = 0;
  std::vector<FleetFinding> findings;  // worst first
};

// A node is an outlier on a metric when it is worse than the fleet median by more than the tolerance and by
// more than 3 robust standard deviations of the fleet (1.4826 x MAD; needs 3 nodes or more). A GPU is an
// outlier when it is worse than the median of its node's other GPUs by more than the tolerance.
FleetReport analyse_fleet(const std::vector<SourcedResults>& runs);

}  // namespace gpubench
