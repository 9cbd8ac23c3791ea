#pragma once
// Why a host<->device copy got slower, where the run itself can tell. A link narrower than its maximum slows both
// ways (narrowed_link.hpp), and so does a slower link generation. So a copy slower one way while the same copies the
// other way held, on a link at its full width, points first at what only that way crosses: the host's side (its
// memory, another tenant's traffic on a shared host: one H100 node's both-ways H2D read 21 % low in fresh processes
// while its D2H held) or errors on one direction of the link. The GPU comes after those.
#include <string>
#include <vector>

#include "harness/results/results_document.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

// The copy the other way of a PCIe figure's id ("pcie/d2h/pinned/64MiB/gpu0/bandwidth" for
// "pcie/h2d/pinned/64MiB/gpu0/bandwidth", the both-ways and all-GPU copies alike); "" when it has none.
std::string other_way(const std::string& metric_id);

// The cause to add to `verdict`'s reason, "" when the run names none: the narrowed link for a PCIe figure that moved
// the worse way; for a regression or noisy figure on a link recorded at its full width, the other way that held among
// `verdicts` (measured against the baseline, and not worse than its nominal tolerance).
std::string link_cause(const ResultsDocument& results, const std::vector<MetricVerdict>& verdicts,
                       const MetricVerdict& verdict);

// Adds each verdict's link cause to its reason ("; PCIe link x8 of x16"), all decided before any is added.
void add_link_causes(std::vector<MetricVerdict>& verdicts, const ResultsDocument& results);

}  // namespace gpubench
