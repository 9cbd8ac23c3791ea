#pragma once
// What `gpubench baseline create` made, per family: how many metrics gate and how much the family moves
// between runs (between processes), so the spread behind each gating decision is visible at once.
#include <ostream>

#include "harness/baseline/baseline_document.hpp"

namespace gpubench {

// One row per family (the first part of the metric id): metrics, gating, informational, how many gate on a node
// none of the runs used (the host-bound figures do not there), and the median and largest spread between runs
// relative to expected (with the metric that has the largest).
void print_baseline_summary(const Baseline& baseline, std::ostream& out);

}  // namespace gpubench
