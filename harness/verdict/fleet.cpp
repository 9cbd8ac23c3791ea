#include "harness/verdict/fleet.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "benchmarks/catalogue.hpp"
#include "benchmarks/common/metric_id.hpp"
#include "harness/baseline/node_bound_gating.hpp"
#include "harness/baseline/tolerances.hpp"
#include "harness/results/id_pattern.hpp"
#include "harness/results/statistics.hpp"
#include "harness/verdict/deviation.hpp"

namespace gpubench {
namespace {

// Standard deviations of noise a difference must pass: the fleet's robust spread, as check's for a run's own.
constexpr double kSignificance = 3.0;
constexpr std::size_t kNodesForAMedian = 3;

// "2.4 %": one decimal.
std::string percent(double fraction) {
  std::ostringstream out;
  out.precision(1);
  out << std::fixed << 100 * fraction << " %";
  return out.str();
}

// The runs of one node share a GPU (UUIDs): hostnames repeat across VMs and images, GPUs do not.
int count_distinct_nodes(const std::vector<SourcedResults>& runs) {
  std::vector<std::set<std::string>> nodes;
  for (const SourcedResults& run : runs) {
    std::vector<std::string> names = gpu_uuids_of(run.results.environment);
    if (names.empty()) names.push_back("host " + run.results.run.host);
    const auto same = std::find_if(nodes.begin(), nodes.end(), [&](const std::set<std::string>& node) {
      return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return node.count(n) > 0; });
    });
    if (same == nodes.end()) {
      nodes.emplace_back(names.begin(), names.end());
    } else {
      same->insert(names.begin(), names.end());
    }
  }
  return static_cast<int>(nodes.size());
}

// What the fleet holds a figure to: the kind baseline's row where it has one, and the catalogue's tolerance.
class FleetRules {
 public:
  FleetRules(const Baseline* kind_baseline, FleetReport& report)
      : kind_baseline_(kind_baseline), report_(report), deciding_(acceptance_filter(family_catalogue())) {}

  const BaselineMetric* known(const std::string& id) const {
    if (kind_baseline_ == nullptr) return nullptr;
    const auto row = kind_baseline_->metrics.find(id);
    return row == kind_baseline_->metrics.end() ? nullptr : &row->second;
  }

  double tolerance(const Metric& m) const {
    const BaselineMetric* row = known(m.id);
    return row != nullptr ? row->tolerance : default_tolerance(m.id, m.unit);
  }

  // The kind baseline's run-to-run spread of the figure, relative to its expected value; 0 where unknown.
  double relative_spread(const std::string& id) const {
    const BaselineMetric* row = known(id);
    return row != nullptr && row->expected > 0 ? row->spread / row->expected : 0;
  }

  // Whether the figure is judged at all; if not, it is listed once in the report's unjudged figures, with why.
  bool judged(const std::string& id) {
    if (node_bound(id)) {
      leave_unjudged(id, FleetUnjudged::HostBound,
                     "it measures the host (CPU, OS, virtualisation) as much as the GPU: healthy nodes of one kind "
                     "differ on it by more than its tolerance");
      return false;
    }
    const BaselineMetric* row = known(id);
    if (row != nullptr && !row->gates) {
      leave_unjudged(id, FleetUnjudged::NotGating, "the node kind's baseline does not gate it: " + row->gate_reason);
      return false;
    }
    return true;
  }

  void leave_unjudged(const std::string& id, FleetUnjudged why, const std::string& reason) {
    if (unjudged_.count(id) == 0) unjudged_[id] = {id, why, reason, deciding_.matches(id)};
  }

  void list_unjudged() const {
    for (const auto& [id, figure] : unjudged_) report_.unjudged.push_back(figure);
  }

 private:
  const Baseline* kind_baseline_;
  FleetReport& report_;
  IdPattern deciding_;
  std::map<std::string, UnjudgedFleetFigure> unjudged_;
};

// How far noise alone moves one figure from its reference, in its unit: kSignificance x the spread of one value
// (`spread`) combined, as check combines a baseline's noise with a run's, with kSignificance x the run's own error.
double noise_of(const Metric& m, double spread) {
  const double own = kSignificance * median_standard_error(m.statistics);
  const double between = kSignificance * spread;
  return std::sqrt(own * own + between * between);
}

// Files a figure worse than its reference by more than the tolerance: an outlier past the noise, else within it.
void judge(FleetReport& report, FleetFinding finding, const Metric& m, double tolerance, double noise,
           const std::string& against) {
  if (worseness(finding.deviation, m.better) <= tolerance) return;
  finding.noise = noise / finding.reference;
  const std::string moved = describe_deviation(finding.deviation, against);
  if (std::fabs(m.value - finding.reference) > noise) {
    finding.reason = moved + ": past the " + percent(tolerance) + " tolerance and the noise (" +
                     percent(finding.noise) + ")";
    report.findings.push_back(finding);
  } else {
    finding.reason = moved + ": past the " + percent(tolerance) + " tolerance, but noise alone could move it " +
                     percent(finding.noise);
    report.within_noise.push_back(finding);
  }
}

struct Entry {
  const SourcedResults* run;
  const Metric* metric;
};

void against_the_fleet(const std::string& id, const std::vector<Entry>& entries, FleetRules& rules,
                       FleetReport& report) {
  if (!rules.judged(id)) return;
  if (entries.size() < kNodesForAMedian) {
    rules.leave_unjudged(id, FleetUnjudged::TooFewNodes,
                         "measured by " + std::to_string(entries.size()) + " run(s): a fleet median needs 3 or more");
    return;
  }
  std::vector<double> values;
  std::vector<double> errors;
  for (const Entry& e : entries) {
    values.push_back(e.metric->value);
    errors.push_back(median_standard_error(e.metric->statistics));
  }
  const double fleet_median = median(values);
  if (fleet_median <= 0) return;
  ++report.metrics_compared;
  std::vector<double> deviations;
  for (double v : values) deviations.push_back(std::fabs(v - fleet_median));
  const double spread = std::max({kMadToSigma * median(deviations), median(errors),
                                  rules.relative_spread(id) * fleet_median});
  const std::string against = "the fleet median of " + std::to_string(entries.size()) + " nodes";
  for (const Entry& e : entries) {
    const Metric& m = *e.metric;
    const FleetFinding finding{"node",  e.run->results.run.host, e.run->path, m.device, id, m.value, fleet_median,
                               (m.value - fleet_median) / fleet_median, 0, m.unit, ""};
    judge(report, finding, m, rules.tolerance(m), noise_of(m, spread), against);
  }
}

// Within one node: the same benchmark on each GPU, each against the median of the others.
void against_sibling_gpus(const SourcedResults& run, FleetRules& rules, FleetReport& report) {
  std::map<std::string, std::vector<const Metric*>> siblings;
  for (const Metric& m : run.results.metrics) {
    const MetricId id(m.id);
    if (id.gpu()) siblings[id.with_any_gpu()].push_back(&m);
  }
  for (const auto& [generic, metrics] : siblings) {
    if (metrics.size() < 2) continue;
    std::vector<double> errors;
    for (const Metric* m : metrics) errors.push_back(median_standard_error(m->statistics));
    for (const Metric* m : metrics) {
      if (!rules.judged(m->id)) continue;
      std::vector<double> others;
      for (const Metric* other : metrics) {
        if (other != m) others.push_back(other->value);
      }
      const double reference = median(others);
      if (reference <= 0) continue;
      const double spread = std::max(median(errors), rules.relative_spread(m->id) * reference);
      const FleetFinding finding{"gpu",  run.results.run.host, run.path, MetricId(m->id).gpu(), m->id, m->value,
                                 reference, (m->value - reference) / reference, 0, m->unit, ""};
      judge(report, finding, *m, rules.tolerance(*m), noise_of(*m, spread),
            against_other_gpus(others.size()) + " of this node");
    }
  }
}

}  // namespace

std::string to_string(FleetUnjudged why) {
  switch (why) {
    case FleetUnjudged::HostBound: return "host_bound";
    case FleetUnjudged::NotGating: return "not_gating";
    case FleetUnjudged::TooFewNodes: return "too_few_nodes";
  }
  return "";
}

int FleetReport::unjudged_count(FleetUnjudged why) const {
  return static_cast<int>(std::count_if(unjudged.begin(), unjudged.end(),
                                        [why](const UnjudgedFleetFigure& f) { return f.why == why; }));
}

FleetReport analyse_fleet(const std::vector<SourcedResults>& runs, const Baseline* kind_baseline) {
  FleetReport report;
  report.nodes = static_cast<int>(runs.size());
  std::set<std::string> hosts;
  for (const SourcedResults& run : runs) hosts.insert(run.results.run.host);
  report.hosts = static_cast<int>(hosts.size());
  report.distinct_nodes = count_distinct_nodes(runs);
  report.kind_baseline = kind_baseline != nullptr;
  FleetRules rules(kind_baseline, report);
  std::map<std::string, std::vector<Entry>> by_metric;
  for (const SourcedResults& run : runs) {
    for (const Metric& m : run.results.metrics) by_metric[m.id].push_back({&run, &m});
  }
  for (const auto& [id, entries] : by_metric) against_the_fleet(id, entries, rules, report);
  for (const SourcedResults& run : runs) against_sibling_gpus(run, rules, report);
  rules.list_unjudged();
  const auto worst_first = [](const FleetFinding& a, const FleetFinding& b) {
    return std::fabs(a.deviation) > std::fabs(b.deviation);
  };
  std::sort(report.findings.begin(), report.findings.end(), worst_first);
  std::sort(report.within_noise.begin(), report.within_noise.end(), worst_first);
  return report;
}

}  // namespace gpubench
