#pragma once
// The figures a node is accepted on (the catalogue's acceptance figures: memory bandwidth, the large GEMMs, pinned
// PCIe, NVLink and the large collectives) are what a baseline exists to guard. One that does not gate, because it
// moved between the baseline's healthy runs by more than its tolerance allows, cannot fail a check however much it
// falls: its measurement is not reproducible between processes, which is for the measurement to fix, not the rule.
// `baseline create` names each such figure, so it is not lost among the host latencies that are expected not to gate.
#include <string>
#include <vector>

#include "harness/baseline/baseline_document.hpp"

namespace gpubench {

struct UngatedHeadline {
  std::string metric;
  std::string reason;  // the metric's gate_reason
};

// The acceptance figures of `baseline` that do not gate, in id order.
std::vector<UngatedHeadline> ungated_headlines(const Baseline& baseline);

}  // namespace gpubench
