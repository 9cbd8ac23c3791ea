#include "harness/baseline/run_as_baseline.hpp"

#include <algorithm>
#include <optional>

#include "benchmarks/catalogue.hpp"
#include "harness/baseline/gating.hpp"
#include "harness/baseline/gpu_model_fallback.hpp"
#include "harness/baseline/node_bound_gating.hpp"

namespace gpubench {
namespace {

struct Rule {
  std::string source;  // the baseline file the rule comes from
  BaselineMetric metric;
};

// The entry that sets metric `id`'s rules: the same GPU model's for a GPU's own figure the kind's does not gate, or
// gates only at a wider tolerance (gpu_model_fallback.hpp), else the kind's, else none.
std::optional<Rule> rule_for(const std::string& id, const Baseline* rules, const std::string& rules_path,
                             const std::vector<SourcedBaseline>& same_model) {
  const BaselineMetric* kind_entry = nullptr;
  if (rules != nullptr) {
    const auto found = rules->metrics.find(id);
    if (found != rules->metrics.end()) kind_entry = &found->second;
  }
  if (const std::optional<FallbackJudge> fallback = gpu_model_judge(id, kind_entry, same_model)) {
    return Rule{fallback->path, fallback->metric};
  }
  if (kind_entry != nullptr) return Rule{rules_path, *kind_entry};
  return std::nullopt;
}

}  // namespace

Baseline run_as_baseline(const SourcedResults& run, const Baseline* rules, const std::string& rules_path,
                         const std::vector<SourcedBaseline>& same_model) {
  Baseline baseline = build_baseline({run}, "the run " + run.path, "", "");
  // What a host-bound figure does between runs on this node, a baseline made on other nodes cannot say either.
  const bool rules_made_here = rules && made_on_this_node(*rules, gpu_uuids_of(run.results.environment));
  for (auto& [id, metric] : baseline.metrics) {
    std::optional<Rule> rule = rule_for(id, rules, rules_path, same_model);
    if (rule) rule->metric = as_judged_on_node(rule->metric, id, rules_made_here);
    if (!rule) {
      if (node_bound(id)) {
        metric.gates = false;
        metric.gate_reason = "it measures the host, and with no baseline of this kind to say how much it moves "
                             "between runs, one run cannot judge it";
      }
      continue;
    }
    metric.tolerance = rule->metric.tolerance;
    if (!rule->metric.gates) {
      metric.gates = false;
      metric.gate_reason = rule->source + " does not gate it: " + rule->metric.gate_reason;
      continue;
    }
    if (rule->metric.expected > 0) {
      metric.spread = std::max(metric.spread, rule->metric.spread / rule->metric.expected * metric.expected);
    }
    metric.gate_reason = why_not_gating(metric);
    if (!metric.gate_reason.empty()) metric.gate_reason += " (run-to-run spread from " + rule->source + ")";
    metric.gates = metric.gate_reason.empty();
  }
  return baseline;
}

}  // namespace gpubench
