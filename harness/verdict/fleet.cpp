#include "harness/verdict/fleet.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "harness/baseline/tolerances.hpp"
#include "harness/results/statistics.hpp"
#include "harness/verdict/deviation.hpp"
#include "benchmarks/common/metric_id.hpp"

namespace gpubench {
FleetReport analyse_fleet(const std::vector<SourcedResults>& runs) {
  FleetReport report;
  report.nodes = static_cast<int>(runs.size());
  std::set<std::string> hosts;
  for (const SourcedResults& run : runs) hosts.insert(run.results.run.host);
  report.hosts = static_cast<int>(hosts.size());
  struct Entry {
    const SourcedResults* run;
    const Metric* metric;
  };
  std::map<std::string, std::vector<Entry>> by_metric;
  for (const SourcedResults& run : runs) {
    for (const Metric& m : run.results.metrics) by_metric[m.id].push_back({&run, &m});
  }
  // Against the fleet.
  for (const auto& [id, entries] : by_metric) {
    if (entries.size() < 3) continue;
    ++report.metrics_compared;
    std::vector<double> values;
    for (const Entry& e : entries) values.push_back(e.metric->value);
    const double fleet_median = median(values);
    if (fleet_median <= 0) continue;
    std::vector<double> deviations;
    for (double v : values) deviations.push_back(std::fabs(v - fleet_median));
    const double sigma = kMadToSigma * median(deviations);
    const double tolerance = default_tolerance(id, entries[0].metric->unit);
    for (const Entry& e : entries) {
      const double deviation = (e.metric->value - fleet_median) / fleet_median;
      const bool past_tolerance = worseness(deviation, e.metric->better) > tolerance;
      const bool past_noise = std::fabs(e.metric->value - fleet_median) > 3 * sigma;
      if (!past_tolerance || !past_noise) continue;
      report.findings.push_back({"node", e.run->results.run.host, e.run->path, e.metric->device, id, e.metric->value,
                                 fleet_median, deviation, e.metric->unit,
                                 describe_deviation(deviation, "the fleet median") + " of " + std::to_string(entries.size()) + " nodes"});
    }
  }
  // Within each node: the same benchmark on each GPU.
  for (const SourcedResults& run : runs) {
    std::map<std::string, std::vector<const Metric*>> siblings;
    for (const Metric& m : run.results.metrics) {
      const MetricId id(m.id);
      const std::string generic = id.with_any_gpu();
      const std::optional<int> gpu = id.gpu();
      if (gpu) siblings[generic].push_back(&m);
    }
    for (const auto& [generic, metrics] : siblings) {
      if (metrics.size() < 2) continue;
      const double tolerance = default_tolerance(generic, metrics[0]->unit);
      for (const Metric* m : metrics) {
        std::vector<double> others;
        for (const Metric* other : metrics) {
          if (other != m) others.push_back(other->value);
        }
        const double reference = median(others);
        if (reference <= 0) continue;
        const double deviation = (m->value - reference) / reference;
        if (worseness(deviation, m->better) <= tolerance) continue;
        report.findings.push_back({"gpu", run.results.run.host, run.path, MetricId(m->id).gpu(), m->id, m->value,
                                   reference, deviation, m->unit,
                                   describe_deviation(deviation, against_other_gpus(others.size()) + " of this node")});
      }
    }
  }
  std::sort(report.findings.begin(), report.findings.end(),
            [](const FleetFinding& a, const FleetFinding& b) { return std::fabs(a.deviation) > std::fabs(b.deviation); });
  return report;
}

}  // namespace gpubench
