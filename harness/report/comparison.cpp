#include "harness/report/comparison.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "harness/report/text_table.hpp"
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

void print_comparison(const Comparison& comparison, std::ostream& out) {
  TextTable table;
  table.add_column("metric");
  table.add_column("unit");
  for (std::size_t r = 0; r < comparison.labels.size(); ++r) {
    table.add_column("[" + std::to_string(r + 1) + "]", TextTable::Align::Right);
    if (r > 0) table.add_column("[" + std::to_string(r + 1) + "]/[1]", TextTable::Align::Right);
  }
  for (const ComparisonRow& row : comparison.rows) {
    std::vector<std::string> cells = {row.metric, row.unit};
    for (std::size_t r = 0; r < row.values.size(); ++r) {
      const double v = row.values[r];
      cells.push_back(format_number(v, std::fabs(v) >= 100 ? 1 : (std::fabs(v) >= 1 ? 2 : 4)));
      if (r > 0) cells.push_back(std::isfinite(row.ratios[r]) ? format_number(row.ratios[r], 3) : "-");
    }
    table.add_row(cells);
  }
  for (std::size_t r = 0; r < comparison.labels.size(); ++r) out << "[" << r + 1 << "] " << comparison.labels[r] << "\n";
  out << "\n";
  table.print(out);
  if (!comparison.not_shared.empty()) {
    out << "\nNot in every run (not compared):\n";
    for (const std::string& line : comparison.not_shared) out << "  " << line << "\n";
  }
}

nlohmann::json comparison_json(const Comparison& comparison) {
  nlohmann::json rows = nlohmann::json::array();
  for (const ComparisonRow& row : comparison.rows) {
    rows.push_back({{"metric", row.metric}, {"unit", row.unit}, {"better", to_string(row.better)},
                    {"values", row.values}, {"ratios", row.ratios}});
  }
  return {{"runs", comparison.labels}, {"rows", rows}, {"not_shared", comparison.not_shared}};
}

}  // namespace gpubench
