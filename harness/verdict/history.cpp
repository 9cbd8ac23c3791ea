#include "harness/verdict/history.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "harness/baseline/node_bound_gating.hpp"
#include "harness/baseline/tolerances.hpp"
#include "harness/verdict/contention.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

std::string text_of(const json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

// A node as a person reads it: "vm (GPU-93520, GPU-600b9)", its host and the start of each GPU's UUID.
std::string node_of(const ResultsDocument& results) {
  std::vector<std::string> uuids = gpu_uuids_of(results.environment);
  std::sort(uuids.begin(), uuids.end());
  std::string gpus;
  for (const std::string& uuid : uuids) gpus += (gpus.empty() ? "" : ", ") + uuid.substr(0, 12);
  return results.run.host + (gpus.empty() ? "" : " (" + gpus + ")");
}

void compare_field(const json& before, const json& after, const std::string& key, const std::string& label,
                   std::vector<std::string>& out) {
  const bool had = before.is_object() && before.contains(key);
  const bool has = after.is_object() && after.contains(key);
  if (!had && !has) return;
  const std::string a = had ? text_of(before.at(key)) : "(none)";
  const std::string b = has ? text_of(after.at(key)) : "(none)";
  if (a != b) out.push_back(label + " " + a + " -> " + b);
}

}  // namespace

std::vector<std::string> environment_differences(const ResultsDocument& before, const ResultsDocument& after) {
  std::vector<std::string> out;
  const json& a = before.environment;
  const json& b = after.environment;
  const json none = json::object();
  const json& va = a.contains("versions") ? a.at("versions") : none;
  const json& vb = b.contains("versions") ? b.at("versions") : none;
  for (const char* key : {"driver", "cuda_driver", "cuda_runtime", "cublas", "nccl"}) compare_field(va, vb, key, key, out);
  if (before.run.gpubench_version != after.run.gpubench_version || before.run.git_revision != after.run.git_revision) {
    out.push_back("gpubench " + before.run.gpubench_version + " (" + before.run.git_revision + ") -> " +
                  after.run.gpubench_version + " (" + after.run.git_revision + ")");
  }
  const json& ga = a.contains("gpus") ? a.at("gpus") : json::array();
  const json& gb = b.contains("gpus") ? b.at("gpus") : json::array();
  if (ga.size() != gb.size()) out.push_back("GPU count " + std::to_string(ga.size()) + " -> " + std::to_string(gb.size()));
  for (std::size_t i = 0; i < std::min(ga.size(), gb.size()); ++i) {
    const std::string gpu = "GPU " + std::to_string(i) + " ";
    compare_field(ga[i], gb[i], "name", gpu + "model", out);
    compare_field(ga[i], gb[i], "uuid", gpu + "uuid", out);
    compare_field(ga[i], gb[i], "power_limit_w", gpu + "power limit (W)", out);
    compare_field(ga[i], gb[i], "ecc_enabled", gpu + "ECC", out);
    compare_field(ga[i], gb[i], "sm_clock_peak_mhz", gpu + "SM clock peak (MHz)", out);
    compare_field(ga[i].value("clocks", none), gb[i].value("clocks", none), "sm_max_mhz", gpu + "SM clock max (MHz)", out);
    compare_field(ga[i].value("clocks", none), gb[i].value("clocks", none), "memory_max_mhz", gpu + "memory clock max (MHz)", out);
    compare_field(ga[i].value("pcie", none), gb[i].value("pcie", none), "current_generation", gpu + "PCIe generation", out);
    compare_field(ga[i].value("pcie", none), gb[i].value("pcie", none), "current_width", gpu + "PCIe width", out);
  }
  const json& xa = a.contains("variables") ? a.at("variables") : none;
  const json& xb = b.contains("variables") ? b.at("variables") : none;
  std::map<std::string, bool> names;
  for (const auto& [k, v] : xa.items()) names[k] = true;
  for (const auto& [k, v] : xb.items()) names[k] = true;
  for (const auto& [name, unused] : names) compare_field(xa, xb, name, "$" + name, out);
  return out;
}

HistoryReport analyse_history(std::vector<SourcedResults> runs, const ChangePointOptions& options) {
  HistoryReport report;
  report.runs = static_cast<int>(runs.size());
  std::sort(runs.begin(), runs.end(), [](const SourcedResults& x, const SourcedResults& y) {
    return x.results.run.started_at < y.results.run.started_at;
  });
  struct Point {
    const SourcedResults* run;
    const Metric* metric;
  };
  std::map<std::pair<std::string, std::string>, std::vector<Point>> series;  // (node, metric)
  std::map<std::string, int> nodes;
  for (const SourcedResults& run : runs) {
    const std::string node = node_of(run.results);
    ++nodes[node];
    for (const Metric& m : run.results.metrics) series[{node, m.id}].push_back({&run, &m});
  }
  report.nodes = static_cast<int>(nodes.size());
  report.runs_needed = fewest_runs_to_find_a_change(options);
  for (const auto& [key, points] : series) {
    ++report.series;
    report.longest_series = std::max(report.longest_series, points.size());
    std::vector<double> values;
    for (const Point& p : points) values.push_back(p.metric->value);
    const double tolerance = default_tolerance(key.second, points.front().metric->unit);
    for (const ChangePoint& cp : find_change_points(values, options)) {
      if (std::fabs(cp.relative_change) <= tolerance) {
        ++report.within_tolerance;
        continue;
      }
      HistoryChange change;
      change.host = points[cp.index].run->results.run.host;
      change.node = key.first;
      change.tolerance = tolerance;
      change.contention = contention_during(points[cp.index].run->results, *points[cp.index].metric);
      change.metric = key.second;
      change.unit = points[cp.index].metric->unit;
      change.index = cp.index;
      change.points = points.size();
      change.date = points[cp.index].run->results.run.started_at;
      change.last_before = points[cp.index - 1].run->results.run.id;
      change.first_after = points[cp.index].run->results.run.id;
      change.before = cp.before_median;
      change.after = cp.after_median;
      change.relative_change = cp.relative_change;
      change.confidence = 1 - cp.p_value;
      change.worse = points[cp.index].metric->better == Better::Higher ? cp.relative_change < 0 : cp.relative_change > 0;
      change.environment_changes = environment_differences(points[cp.index - 1].run->results, points[cp.index].run->results);
      report.changes.push_back(change);
    }
  }
  std::sort(report.changes.begin(), report.changes.end(),
            [](const HistoryChange& x, const HistoryChange& y) { return x.date < y.date; });
  return report;
}

}  // namespace gpubench
