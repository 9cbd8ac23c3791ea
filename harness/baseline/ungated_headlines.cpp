#include "harness/baseline/ungated_headlines.hpp"

#include "benchmarks/catalogue.hpp"
#include "harness/results/id_pattern.hpp"

namespace gpubench {

std::vector<UngatedHeadline> ungated_headlines(const Baseline& baseline) {
  const IdPattern headline(acceptance_filter(family_catalogue()));
  std::vector<UngatedHeadline> ungated;
  for (const auto& [id, metric] : baseline.metrics) {
    if (!metric.gates && headline.matches(id)) ungated.push_back({id, metric.gate_reason});
  }
  return ungated;
}

}  // namespace gpubench
