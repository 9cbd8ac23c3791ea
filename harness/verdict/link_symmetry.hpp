#pragma once
// GPU-to-GPU links that fall short of their like, within one results document: a pair well below the median
// of the pairs joined by the same kind of link (same benchmark, size and figure), and a direction well below
// its reverse. Only the worse side is flagged: a fast pair is not a problem. A pure analysis of metrics.
#include <cstddef>
#include <string>
#include <vector>

#include "harness/results/results_document.hpp"

namespace gpubench {

struct LinkSymmetryOptions {
  double tolerance = 0.10;         // how much worse than the reference a figure may be before it is flagged
  std::size_t min_link_pairs = 3;  // pairs of one link kind needed before their median is a reference
};

enum class LinkRule {
  BelowLinkMedian,  // worse than the median of the pairs with the same link kind
  BelowReverse,     // A->B worse than B->A
};

struct LinkFinding {
  LinkRule rule = LinkRule::BelowLinkMedian;
  std::string metric;  // the flagged metric's id
  double value = 0;
  std::string unit;
  std::string link;  // the pair's link kind, from params "link" ("unknown" when absent)
  double reference = 0;                        // the link kind's median, or the reverse direction's value
  std::vector<std::string> reference_metrics;  // the ids the reference comes from (the flagged one included)
  double deviation = 0;                        // (value - reference) / reference
  std::string reason;
};

// Considers the metrics whose id names an ordered pair, "family/variant/.../gpuA-gpuB/figure" (the p2p
// family's), and ignores the rest. Figures are compared only with the same id but for the pair; "worse"
// follows each metric's `better`. Findings come worst first.
std::vector<LinkFinding> find_link_asymmetries(const std::vector<Metric>& metrics, const LinkSymmetryOptions& options = {});

const char* to_string(LinkRule rule);

}  // namespace gpubench
