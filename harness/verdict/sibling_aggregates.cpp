#include "harness/verdict/sibling_aggregates.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "benchmarks/common/metric_id.hpp"
#include "benchmarks/p2p/copy_patterns.hpp"
#include "harness/results/statistics.hpp"
#include "harness/verdict/deviation.hpp"

namespace gpubench {

bool is_concurrent_pattern(const std::string& metric_id) {
  const std::string prefix = "p2p/";
  if (metric_id.rfind(prefix, 0) != 0) return false;
  const std::size_t end = metric_id.find('/', prefix.size());
  if (end == std::string::npos) return false;
  const std::string variant = metric_id.substr(prefix.size(), end - prefix.size());
  for (CopyDriver driver : {CopyDriver::CopyEngine, CopyDriver::Sm}) {
    for (CopyPattern pattern : {CopyPattern::AllToOne, CopyPattern::OneToAll}) {
      if (variant == pattern_variant(driver, pattern)) return true;
    }
  }
  return false;
}

std::vector<SiblingFinding> find_slow_siblings(const std::vector<Metric>& metrics, const SiblingOptions& options) {
  std::map<std::string, std::vector<const Metric*>> by_id;  // the id with "gpu*" -> one metric per GPU
  for (const Metric& metric : metrics) {
    if (!is_concurrent_pattern(metric.id) || !std::isfinite(metric.value) || metric.value <= 0) continue;
    const MetricId id(metric.id);
    if (id.gpu()) by_id[id.with_any_gpu()].push_back(&metric);
  }
  std::vector<SiblingFinding> findings;
  for (const auto& [generic, group] : by_id) {
    if (group.size() < 2) continue;
    for (const Metric* m : group) {
      std::vector<double> others;
      std::vector<std::string> ids;
      for (const Metric* other : group) {
        if (other == m) continue;
        others.push_back(other->value);
        ids.push_back(other->id);
      }
      const double reference = median(others);
      const double deviation = (m->value - reference) / reference;
      if (worseness(deviation, m->better) <= options.tolerance) continue;
      findings.push_back({m->id, *MetricId(m->id).gpu(), m->value, m->unit, reference, ids, deviation,
                          describe_deviation(deviation, against_other_gpus(others.size()) + " (" +
                                                            value_with_unit(reference, m->unit) + ")")});
    }
  }
  std::stable_sort(findings.begin(), findings.end(), [](const SiblingFinding& a, const SiblingFinding& b) {
    return std::fabs(a.deviation) > std::fabs(b.deviation);
  });
  return findings;
}

}  // namespace gpubench
