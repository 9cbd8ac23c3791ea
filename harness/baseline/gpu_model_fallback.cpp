#include "harness/baseline/gpu_model_fallback.hpp"

#include "benchmarks/catalogue.hpp"
#include "benchmarks/common/metric_id.hpp"
#include "harness/baseline/gating.hpp"

namespace gpubench {
namespace {

// `id` as a baseline of the same GPU model names it: the same id where it has that GPU, else the same figure on GPU 0
// (a two-GPU run's gpu1 against a one-GPU baseline).
const std::pair<const std::string, BaselineMetric>* entry_for(const std::string& id, const Baseline& baseline) {
  if (const auto same = baseline.metrics.find(id); same != baseline.metrics.end()) return &*same;
  std::string on_gpu0 = MetricId(id).with_any_gpu();
  on_gpu0.replace(on_gpu0.find("gpu*"), 4, "gpu0");
  if (const auto first = baseline.metrics.find(on_gpu0); first != baseline.metrics.end()) return &*first;
  return nullptr;
}

}  // namespace

std::optional<FallbackJudge> gpu_model_judge(const std::string& id, const BaselineMetric* kinds,
                                             const std::vector<SourcedBaseline>& same_model) {
  if (!gpu_own_figure(id)) return std::nullopt;
  std::optional<FallbackJudge> best;
  int best_runs = 0;
  for (const SourcedBaseline& candidate : same_model) {
    const auto* entry = entry_for(id, candidate.baseline);
    if (entry == nullptr || !entry->second.gates || entry->second.runs <= best_runs) continue;
    best = FallbackJudge{candidate.path, entry->first, entry->second};
    best_runs = entry->second.runs;
  }
  const bool kinds_gates_as_narrowly =
      kinds != nullptr && kinds->gates &&
      (!best || gating_tolerance(*kinds).fraction <= gating_tolerance(best->metric).fraction);
  if (kinds_gates_as_narrowly) return std::nullopt;
  return best;
}

}  // namespace gpubench
