#include "harness/verdict/link_symmetry.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include "benchmarks/common/metric_id.hpp"
#include "harness/results/statistics.hpp"
#include "harness/verdict/deviation.hpp"

namespace gpubench {
namespace {

// A metric of one ordered pair, its id split around the pair.
struct PairMetric {
  const Metric* metric;
  std::string generic;  // the id with the pair as "*": p2p/ce_unidir/1GiB/*/bandwidth
  int from;
  int to;
  std::string link;
};

std::optional<PairMetric> parse_pair_metric(const Metric& metric) {
  const MetricId id(metric.id);
  const std::optional<std::pair<int, int>> pair = id.gpu_pair();
  if (!pair) return std::nullopt;
  if (!std::isfinite(metric.value) || metric.value <= 0) return std::nullopt;
  const auto link = metric.params.find("link");
  return PairMetric{&metric, id.with_any_pair(), pair->first, pair->second,
                    link == metric.params.end() || link->second.empty() ? "unknown" : link->second};
}

}  // namespace

const char* to_string(LinkRule rule) {
  return rule == LinkRule::BelowLinkMedian ? "below_link_median" : "below_reverse";
}

std::vector<LinkFinding> find_link_asymmetries(const std::vector<Metric>& metrics, const LinkSymmetryOptions& options) {
  std::vector<PairMetric> pairs;
  for (const Metric& metric : metrics) {
    if (std::optional<PairMetric> parsed = parse_pair_metric(metric)) pairs.push_back(std::move(*parsed));
  }
  std::vector<LinkFinding> findings;

  // Each pair against the median of the pairs with the same id and link kind.
  std::map<std::pair<std::string, std::string>, std::vector<const PairMetric*>> by_link;
  for (const PairMetric& pair : pairs) by_link[{pair.generic, pair.link}].push_back(&pair);
  for (const auto& [key, group] : by_link) {
    if (group.size() < options.min_link_pairs) continue;
    std::vector<double> values;
    std::vector<std::string> ids;
    for (const PairMetric* pair : group) {
      values.push_back(pair->metric->value);
      ids.push_back(pair->metric->id);
    }
    const double reference = median(values);
    for (const PairMetric* pair : group) {
      const Metric& m = *pair->metric;
      const double deviation = (m.value - reference) / reference;
      if (worseness(deviation, m.better) <= options.tolerance) continue;
      findings.push_back({LinkRule::BelowLinkMedian, m.id, m.value, m.unit, pair->link, reference, ids, deviation,
                          describe_deviation(deviation, "the median of " + std::to_string(group.size()) + " " + pair->link +
                                                  " pairs (" + value_with_unit(reference, m.unit) + ")")});
    }
  }

  // Each direction against its reverse.
  std::map<std::tuple<std::string, int, int>, const PairMetric*> by_direction;
  for (const PairMetric& pair : pairs) by_direction[{pair.generic, pair.from, pair.to}] = &pair;
  for (const PairMetric& pair : pairs) {
    const auto reverse = by_direction.find({pair.generic, pair.to, pair.from});
    if (reverse == by_direction.end()) continue;
    const Metric& m = *pair.metric;
    const Metric& r = *reverse->second->metric;
    const double deviation = (m.value - r.value) / r.value;
    if (worseness(deviation, m.better) <= options.tolerance) continue;
    findings.push_back({LinkRule::BelowReverse, m.id, m.value, m.unit, pair.link, r.value, {m.id, r.id}, deviation,
                        describe_deviation(deviation, "the reverse direction " + r.id + " (" + value_with_unit(r.value, r.unit) + ")")});
  }

  std::stable_sort(findings.begin(), findings.end(), [&](const LinkFinding& a, const LinkFinding& b) {
    return std::fabs(a.deviation) > std::fabs(b.deviation);
  });
  return findings;
}

}  // namespace gpubench
