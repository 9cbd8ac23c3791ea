#include "harness/report/comparison.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "harness/results/id_pattern.hpp"

namespace gpubench {

Comparison compare_runs(const std::vector<SourcedResults>& runs, const std::string& filter, const std::string& sort_by) {
  if (sort_by != "metric" && sort_by != "ratio") throw std::invalid_argument("--sort must be metric or ratio, not '" + sort_by + "'");
  std::optional<IdPattern> pattern;
  try {
    pattern.emplace(filter);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(std::string("--filter ") + error.what());
  }
  Comparison comparison;
  std::vector<std::map<std::string, const Metric*>> by_run;
  std::set<std::string> all_ids;
  for (const SourcedResults& run : runs) {
    const nlohmann::json& gpus = run.results.environment.value("gpus", nlohmann::json::array());
    const std::string model = gpus.empty() ? "no GPU" : gpus[0].value("name", "unknown GPU");
    comparison.labels.push_back(run.results.run.host + " / " + model);
    std::map<std::string, const Metric*> metrics;
    for (const Metric& m : run.results.metrics) {
      if (!pattern->matches(m.id)) continue;
      metrics[m.id] = &m;
      all_ids.insert(m.id);
    }
    by_run.push_back(std::move(metrics));
  }
  for (const std::string& id : all_ids) {
    std::vector<std::string> present;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      if (by_run[r].count(id)) present.push_back(comparison.labels[r]);
    }
    if (present.size() != runs.size()) {
      std::string where;
      for (const std::string& label : present) where += (where.empty() ? "" : ", ") + label;
      comparison.not_shared.push_back(id + " (only in: " + where + ")");
      continue;
    }
    ComparisonRow row;
    row.metric = id;
    row.unit = by_run[0].at(id)->unit;
    row.better = by_run[0].at(id)->better;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const double value = by_run[r].at(id)->value;
      row.values.push_back(value);
      row.ratios.push_back(row.values[0] != 0 ? value / row.values[0] : NAN);
    }
    comparison.rows.push_back(std::move(row));
  }
  if (sort_by == "ratio") {
    const auto spread = [](const ComparisonRow& row) {
      double worst = 0;
      for (double r : row.ratios) {
        if (std::isfinite(r) && r > 0) worst = std::max(worst, std::fabs(std::log(r)));
      }
      return worst;
    };
    std::stable_sort(comparison.rows.begin(), comparison.rows.end(),
                     [&](const ComparisonRow& a, const ComparisonRow& b) { return spread(a) > spread(b); });
  }
  return comparison;
}

}  // namespace gpubench
