#include "harness/report/comparison.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "benchmarks/common/metric_id.hpp"
#include "benchmarks/p2p/copy_patterns.hpp"
#include "benchmarks/catalogue.hpp"
#include "harness/baseline/measuring_method.hpp"
#include "harness/baseline/run_as_baseline.hpp"
#include "harness/results/id_pattern.hpp"
#include "harness/verdict/confirmation.hpp"
#include "harness/verdict/contention.hpp"
#include "harness/verdict/mann_whitney.hpp"

namespace gpubench {
namespace {

Direction direction_of(double first, double later, Better better) {
  if (later == first || (first != 0 && std::fabs(later / first - 1) < kSameRatioWithin)) return Direction::Same;
  return (later > first) == (better == Better::Higher) ? Direction::Better : Direction::Worse;
}

bool repetitions_apart(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) return false;
  const auto [a_low, a_high] = std::minmax_element(a.begin(), a.end());
  const auto [b_low, b_high] = std::minmax_element(b.begin(), b.end());
  return *a_high < *b_low || *b_high < *a_low;
}

std::size_t gpu_count(const ResultsDocument& results) {
  if (!results.run.devices.empty()) return results.run.devices.size();
  const auto gpus = results.environment.find("gpus");
  return gpus != results.environment.end() && gpus->is_array() ? gpus->size() : 0;
}

std::string gpus_text(std::size_t count) {
  return std::to_string(count) + (count == 1 ? " GPU" : " GPUs");
}

FamilySummary summary_named(const std::string& family) {
  FamilySummary summary;
  summary.family = family;
  return summary;
}

void count_into(FamilySummary& summary, const ComparisonRow& row, std::size_t later) {
  const Difference& d = row.against_first[later - 1];
  if (d.direction == Direction::NotComparable) {
    ++summary.not_comparable;
    return;
  }
  ++summary.metrics;
  summary.host_bound += d.host_bound();
  if (d.direction == Direction::Better) {
    ++summary.better;
    summary.clearly_better += d.clearly();
  } else if (d.direction == Direction::Worse) {
    ++summary.worse;
    summary.clearly_worse += d.clearly();
  } else {
    ++summary.same;
  }
}

// Per family, then all of them, for the later run `later` (1, 2, ...).
RunSummary summary_of(const Comparison& comparison, std::size_t later) {
  std::map<std::string, FamilySummary> families;
  std::map<std::string, std::pair<double, int>> log_gains;  // sum of log(gain) and how many, per family and "all"
  FamilySummary all = summary_named("all");
  for (const ComparisonRow& row : comparison.rows) {
    const std::string family = MetricId(row.metric).family();
    FamilySummary& summary = families.emplace(family, summary_named(family)).first->second;
    count_into(summary, row, later);
    count_into(all, row, later);
    const double ratio = row.ratios[later];
    const Difference& d = row.against_first[later - 1];
    if (d.direction == Direction::NotComparable || d.host_bound() || !std::isfinite(ratio) || ratio <= 0) continue;
    const double log_gain = row.better == Better::Higher ? std::log(ratio) : -std::log(ratio);
    for (const std::string& key : {family, std::string("all")}) {
      log_gains[key].first += log_gain;
      ++log_gains[key].second;
    }
  }
  RunSummary summary{comparison.runs[later].key, true, {}};
  for (const ComparisonRow& row : comparison.rows) {
    if (row.against_first[later - 1].standing == Standing::HostBoundElsewhere) summary.same_node = false;
  }
  for (auto& [family, counts] : families) summary.families.push_back(counts);
  summary.families.push_back(all);
  for (FamilySummary& counts : summary.families) {
    const auto gains = log_gains.find(counts.family);
    if (gains != log_gains.end()) counts.geomean_gain = std::exp(gains->second.first / gains->second.second);
  }
  return summary;
}

// The later run's verdicts as `check --against FIRST` gives them, by metric id: the first run made a baseline of one
// run with the node kind's rules (run_as_baseline.hpp). Both runs come with_confirmed_values: a figure `check
// --confirm` measured again is its fresh processes' median, on either side.
std::map<std::string, MetricVerdict> judged_against_first(const SourcedResults& first, const SourcedResults& later,
                                                          const ComparisonRules& rules, bool& same_node) {
  const Baseline reference = run_as_baseline(first, rules.kind, rules.path, rules.same_model);
  const CheckReport report = check_against_baseline(later.results, later.path, reference, first.path);
  same_node = report.baseline_made_here;
  std::map<std::string, MetricVerdict> verdicts;
  for (const MetricVerdict& v : report.verdicts) verdicts.emplace(v.id, v);
  return verdicts;
}

}  // namespace

const char* to_string(Direction direction) {
  switch (direction) {
    case Direction::Better: return "better";
    case Direction::Worse: return "worse";
    case Direction::Same: return "same";
    case Direction::NotComparable: return "not_comparable";
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

double chance_apart(std::size_t first_repetitions, std::size_t repetitions) {
  // 2 / C(n + m, n): the two orderings, of the n + m repetitions ranked together, that keep the runs apart.
  double orderings = 1;
  for (std::size_t k = 1; k <= first_repetitions; ++k) {
    orderings = orderings * static_cast<double>(repetitions + k) / static_cast<double>(k);
  }
  return std::min(1.0, 2 / orderings);
}

bool summed_over_the_nodes_gpus(const std::string& metric) {
  const std::string id = "/" + metric + "/";
  if (id.find("/all_gpus/") != std::string::npos) return true;
  if (MetricId(metric).family() != "p2p") return false;
  for (CopyDriver driver : {CopyDriver::CopyEngine, CopyDriver::Sm}) {
    for (CopyPattern pattern : {CopyPattern::AllToOne, CopyPattern::OneToAll}) {
      if (id.rfind("/p2p/" + pattern_variant(driver, pattern) + "/", 0) == 0) return true;
    }
  }
  return false;
}

Difference difference_between(const Metric& first, const Metric& later) {
  Difference difference;
  difference.direction = direction_of(first.value, later.value, first.better);
  difference.first_repetitions = first.samples.size();
  difference.repetitions = later.samples.size();
  difference.apart = repetitions_apart(first.samples, later.samples);
  if (std::min(difference.first_repetitions, difference.repetitions) < kFewestRepetitionsToTest) return difference;
  difference.p_value = mann_whitney_u_test(first.samples, later.samples).p_value;
  difference.noise = *difference.p_value < kNoiseAlpha ? Noise::Beyond : Noise::Within;
  return difference;
}

Comparison compare_runs(const std::vector<SourcedResults>& runs, const std::string& filter, const std::string& sort_by,
                        const ComparisonRules& rules) {
  if (sort_by != "metric" && sort_by != "ratio") throw std::invalid_argument("--sort must be metric or ratio, not '" + sort_by + "'");
  std::optional<IdPattern> pattern;
  try {
    pattern.emplace(filter);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(std::string("--filter ") + error.what());
  }
  Comparison comparison;
  comparison.rules_path = rules.kind != nullptr ? rules.path : "";
  // Each run as check judged it: a figure `check --confirm` measured again is the fresh processes' median.
  std::vector<SourcedResults> confirmed;
  for (const SourcedResults& run : runs) confirmed.push_back({run.path, with_confirmed_values(run.results)});
  std::vector<std::map<std::string, const Metric*>> by_run;
  std::vector<std::set<std::string>> remeasured;
  std::set<std::string> all_ids;
  for (const SourcedResults& run : confirmed) {
    const std::string key = "[" + std::to_string(comparison.runs.size() + 1) + "]";
    comparison.runs.push_back({key, run_label(run.results, run.path), gpu_count(run.results), contention_in(run.results)});
    std::map<std::string, const Metric*> metrics;
    for (const Metric& m : run.results.metrics) {
      if (!pattern->matches(m.id)) continue;
      metrics[m.id] = &m;
      all_ids.insert(m.id);
    }
    by_run.push_back(std::move(metrics));
    std::set<std::string> again;
    for (const Confirmation& c : run.results.confirmations) {
      if (!c.measurements.empty()) again.insert(c.metric);
    }
    remeasured.push_back(std::move(again));
  }
  std::vector<std::map<std::string, MetricVerdict>> verdicts(runs.size());
  std::vector<bool> same_node(runs.size(), true);
  for (std::size_t r = 1; r < confirmed.size(); ++r) {
    bool here = true;
    verdicts[r] = judged_against_first(confirmed[0], confirmed[r], rules, here);
    same_node[r] = here;
  }
  std::map<std::pair<std::string, std::string>, int> only_in;  // (family, runs holding it) -> figures
  for (const std::string& id : all_ids) {
    std::vector<std::string> present;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      if (by_run[r].count(id)) present.push_back(comparison.runs[r].key);
    }
    if (present.size() != runs.size()) {
      std::string where;
      for (const std::string& key : present) where += (where.empty() ? "" : ", ") + key;
      comparison.not_shared.push_back(id + " (only in: " + where + ")");
      ++only_in[{MetricId(id).family(), where}];
      continue;
    }
    const Metric& first = *by_run[0].at(id);
    ComparisonRow row;
    row.metric = id;
    row.unit = first.unit;
    row.better = first.better;
    const std::size_t first_gpus = comparison.runs[0].gpu_count;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const Metric& metric = *by_run[r].at(id);
      row.values.push_back(metric.value);
      row.ratios.push_back(first.value != 0 ? metric.value / first.value : NAN);
      row.remeasured.push_back(remeasured[r].count(id) > 0);
      if (r == 0) continue;
      Difference difference = difference_between(first, metric);
      difference.method_change = method_change(measuring_method(first.params), measuring_method(metric.params));
      const auto verdict = verdicts[r].find(id);
      if (verdict != verdicts[r].end()) {
        difference.verdict = verdict->second.kind;
        difference.reason = verdict->second.reason;
        difference.tolerance = verdict->second.tolerance;
        difference.noise_band = verdict->second.noise;
      }
      const std::string first_contention = contention_during(confirmed[0].results, first);
      const std::string later_contention = contention_during(confirmed[r].results, metric);
      if (!first_contention.empty()) difference.contention = first_contention + " in " + comparison.runs[0].key;
      if (!later_contention.empty()) {
        difference.contention += (difference.contention.empty() ? "" : "; ") + later_contention + " in " + comparison.runs[r].key;
      }
      const std::size_t gpus = comparison.runs[r].gpu_count;
      if (gpus != first_gpus && summed_over_the_nodes_gpus(id)) {
        difference.direction = Direction::NotComparable;
        difference.standing = Standing::NotComparable;
        difference.not_comparable = "a sum over all GPUs of the node: " + comparison.runs[0].key + " ran on " +
                                    gpus_text(first_gpus) + ", " + comparison.runs[r].key + " on " + gpus_text(gpus);
      } else if (node_bound(id)) {
        difference.standing = same_node[r] ? Standing::HostBoundOneRun : Standing::HostBoundElsewhere;
      }
      row.against_first.push_back(std::move(difference));
    }
    comparison.rows.push_back(std::move(row));
  }
  for (const auto& [family_and_runs, figures] : only_in) {
    comparison.not_shared_by_family.push_back({family_and_runs.first, family_and_runs.second, figures});
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
  for (std::size_t later = 1; later < comparison.runs.size(); ++later) {
    comparison.summaries.push_back(summary_of(comparison, later));
  }
  return comparison;
}

}  // namespace gpubench
