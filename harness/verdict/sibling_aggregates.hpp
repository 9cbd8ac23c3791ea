#pragma once
// A GPU whose aggregate copy bandwidth with every peer at once (the p2p family's concurrent patterns, nvbandwidth's
// all_to_one and one_to_all) falls well below its siblings' in one results document. Copies that pass pair by pair
// can fall short when every GPU sends at once, which is how an NVSwitch port or plane fault shows: the GPU behind
// it loses a share of its links. A pure analysis of metrics.
//
// The rule: a GPU is flagged when its figure is worse than the median of the other GPUs' figures for the same id
// (the id with its GPU segment as "gpu*") by more than the tolerance, 10 %. The median of the others, not of all:
// with two GPUs the median of all is their mean, and the slow GPU would drag its own reference down by half its
// shortfall. 10 %: healthy GPUs of one node give these figures within a few percent of each other run to run (the
// p2p family's own tolerance is 5 %), and a lost NVSwitch plane costs a GPU about a quarter of its links (4 planes
// on HGX H100/H200), so it stands well clear of the line; one lost link of 18 (-5.6 %) does not, and is left to
// the baseline (gpubench check) and the pair figures. Only the worse side is flagged: a fast GPU is not a problem.
#include <string>
#include <vector>

#include "harness/results/results_document.hpp"

namespace gpubench {

struct SiblingOptions {
  double tolerance = 0.10;  // how much worse than the median of the other GPUs a figure may be
};

struct SiblingFinding {
  std::string metric;  // the flagged metric's id
  int gpu = 0;
  double value = 0;
  std::string unit;
  double reference = 0;                        // the median of the other GPUs' figures
  std::vector<std::string> reference_metrics;  // the other GPUs' ids
  double deviation = 0;                        // (value - reference) / reference
  std::string reason;
};

// True for the ids the rule reads: p2p/<ce|sm>_<all_to_one|one_to_all>/<size>/gpuN/<figure>.
bool is_concurrent_pattern(const std::string& metric_id);

// Findings worst first; none where fewer than two GPUs measured an id.
std::vector<SiblingFinding> find_slow_siblings(const std::vector<Metric>& metrics, const SiblingOptions& options = {});

}  // namespace gpubench
