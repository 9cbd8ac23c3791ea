#include "harness/report/comparison.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "harness/results/id_pattern.hpp"
#include "harness/verdict/mann_whitney.hpp"

namespace gpubench {
namespace {

Direction direction_of(double first, double later, Better better) {
  if (later == first) return Direction::Same;
  return (later > first) == (better == Better::Higher) ? Direction::Better : Direction::Worse;
}

}  // namespace

const char* to_string(Direction direction) {
  switch (direction) {
    case Direction::Better: return "better";
    case Direction::Worse: return "worse";
    case Direction::Same: return "same";
  }
  return "same";
}

const char* to_string(Noise noise) {
  switch (noise) {
    case Noise::Beyond: return "beyond";
    case Noise::Within: return "within";
    case Noise::TooFewRepetitions: return "too_few_repetitions";
  }
  return "too_few_repetitions";
}

Difference difference_between(const Metric& first, const Metric& later) {
  Difference difference;
  difference.direction = direction_of(first.value, later.value, first.better);
  difference.first_repetitions = first.samples.size();
  difference.repetitions = later.samples.size();
  if (std::min(difference.first_repetitions, difference.repetitions) < kFewestRepetitionsToTest) return difference;
  difference.p_value = mann_whitney_u_test(first.samples, later.samples).p_value;
  difference.noise = *difference.p_value < kNoiseAlpha ? Noise::Beyond : Noise::Within;
  return difference;
}

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
    const std::string key = "[" + std::to_string(comparison.runs.size() + 1) + "]";
    comparison.runs.push_back({key, run_label(run.results, run.path)});
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
      if (by_run[r].count(id)) present.push_back(comparison.runs[r].key);
    }
    if (present.size() != runs.size()) {
      std::string where;
      for (const std::string& key : present) where += (where.empty() ? "" : ", ") + key;
      comparison.not_shared.push_back(id + " (only in: " + where + ")");
      continue;
    }
    const Metric& first = *by_run[0].at(id);
    ComparisonRow row;
    row.metric = id;
    row.unit = first.unit;
    row.better = first.better;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const Metric& metric = *by_run[r].at(id);
      row.values.push_back(metric.value);
      row.ratios.push_back(first.value != 0 ? metric.value / first.value : NAN);
      if (r > 0) row.against_first.push_back(difference_between(first, metric));
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
