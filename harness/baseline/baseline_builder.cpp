#include "harness/baseline/baseline_builder.hpp"

#include <algorithm>
#include <cmath>

#include "harness/baseline/gating.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/baseline/measuring_method.hpp"
#include "harness/baseline/node_bound_gating.hpp"
#include "harness/baseline/tolerances.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/statistics.hpp"

namespace gpubench {
namespace {

// Below this many runs the spread between runs is their sample standard deviation, not the MAD: with three
// runs the MAD is the smaller of two deviations and ignores the third, so a healthy run that is part of the
// baseline could fail its own check. Every run given is healthy by definition; only a large pool (a fleet)
// gains from ignoring outliers.
constexpr std::size_t kRunsForRobustSpread = 10;

}  // namespace

double spread_covering_every_run(const std::vector<double>& values, double expected) {
  double farthest = 0;
  for (double v : values) farthest = std::max(farthest, std::abs(v - expected));
  return farthest / noise_per_unit_spread(static_cast<int>(values.size()));
}

double spread_between_runs(const std::vector<double>& values) {
  if (values.size() < 2) return 0;
  const SampleStatistics runs = summarize(values);
  return values.size() < kRunsForRobustSpread ? runs.stddev : kMadToSigma * runs.mad;
}

Baseline build_baseline(const std::vector<SourcedResults>& runs, const std::string& description,
                        const std::string& created_at, const std::string& gpubench_version) {
  if (runs.empty()) throw InputError("(none)", "", "no results files given", "pass the results of several runs");
  Baseline baseline;
  baseline.description = description;
  baseline.created_at = created_at;
  baseline.gpubench_version = gpubench_version;
  baseline.kind = machine_kind_of(runs[0].results, runs[0].path);
  baseline.recorded_versions = runs[0].results.environment.value("versions", nlohmann::json::object());
  struct Pooled {
    std::vector<double> values;
    std::vector<double> within_errors;  // each run's median_standard_error
    std::vector<MeasuringMethod> methods;
    const Metric* first = nullptr;
  };
  std::map<std::string, Pooled> pooled;
  for (const SourcedResults& run : runs) {
    const MachineKind kind = machine_kind_of(run.results, run.path);
    if (!(kind == baseline.kind)) {
      throw InputError(run.path, "environment.gpus", "is " + describe(kind) + " but " + runs[0].path + " is " +
                                                        describe(baseline.kind), "make one baseline per kind of machine");
    }
    baseline.runs.push_back({run.results.run.id, run.results.run.host, run.results.run.started_at,
                             gpu_uuids_of(run.results.environment)});
    for (const Metric& m : run.results.metrics) {
      Pooled& p = pooled[m.id];
      if (p.first == nullptr) p.first = &m;
      p.values.push_back(m.value);
      p.within_errors.push_back(median_standard_error(m.statistics));
      p.methods.push_back(measuring_method(m.params));
    }
  }
  for (const auto& [id, p] : pooled) {
    BaselineMetric metric;
    metric.expected = median(p.values);
    metric.runs = static_cast<int>(p.values.size());
    metric.spread = std::max({spread_between_runs(p.values), median(p.within_errors),
                              spread_covering_every_run(p.values, metric.expected)});
    metric.better = p.first->better;
    metric.unit = p.first->unit;
    metric.tolerance = default_tolerance(id, metric.unit);
    metric.run_values = p.values;
    metric.method = common_method(p.methods);
    metric.gate_reason = why_not_gating(metric);
    metric.gates = metric.gate_reason.empty();
    baseline.metrics[id] = metric;
  }
  return baseline;
}

}  // namespace gpubench
