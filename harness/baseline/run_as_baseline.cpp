#include "harness/baseline/run_as_baseline.hpp"

#include <algorithm>
#include <optional>

#include "benchmarks/catalogue.hpp"
#include "harness/baseline/gating.hpp"
#include "harness/baseline/gpu_model_fallback.hpp"

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
  for (auto& [id, metric] : baseline.metrics) {
    if (node_bound(id)) {
      metric.gates = false;
      metric.gate_reason = kHostBoundAgainstOneRun;
      continue;
    }
    const std::optional<Rule> rule = rule_for(id, rules, rules_path, same_model);
    if (rule) {
      metric.tolerance = rule->metric.tolerance;
      if (!rule->metric.gates && why_not_gating(rule->metric).empty()) {  // set not to gate by hand, or not here
        metric.gates = false;
        metric.gate_reason = rule->source + " does not gate it: " + rule->metric.gate_reason;
        continue;
      }
      if (rule->metric.expected > 0) {
        metric.spread = std::max(metric.spread, rule->metric.spread / rule->metric.expected * metric.expected);
      }
    }
    // A change is clear only past the tolerance and past what noise moves one run against another: where that band is
    // the wider, it is the tolerance.
    if (metric.expected > 0) metric.tolerance = std::max(metric.tolerance, baseline_noise(metric) / metric.expected);
    metric.gates = true;
    metric.gate_reason.clear();
  }
  return baseline;
}

}  // namespace gpubench
