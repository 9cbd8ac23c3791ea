#pragma once
// What `gpubench compare` prints (comparison.hpp), for a person and for a script. For a person: the runs, a row per
// metric judged against the first run, what the judgements mean (said once, not on every row), the metrics not in
// every run (a line per family), and last a summary per family of each later run. As JSON (gpubench.compare/1):
// json_report's comparison_json, with each judgement's verdict, reason and `apart`, and the `summaries` added.
// Header-only.
#include <nlohmann/json.hpp>

#include <cmath>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "harness/baseline/run_as_baseline.hpp"
#include "harness/report/comparison.hpp"
#include "harness/report/figure_text.hpp"
#include "harness/report/json_report.hpp"
#include "harness/report/text_table.hpp"

namespace gpubench {
namespace comparison_report_detail {

// A later run against the first, as `check --against` judges it: "worse, clearly", "better, within tolerance",
// "worse, within noise", "same", "host-bound, not judged", "not comparable (1 and 2 GPUs)"; ", under contention"
// where another process used the GPU in either run.
inline std::string judged(const Difference& difference, const ComparedRun& first, const ComparedRun& later) {
  std::string text;
  if (difference.standing == Standing::NotComparable) {
    text = "not comparable (" + std::to_string(first.gpu_count) + " and " + std::to_string(later.gpu_count) + " GPUs)";
  } else if (difference.standing == Standing::HostBoundElsewhere) {
    text = "host-bound, other node";
  } else if (difference.standing == Standing::HostBoundOneRun) {
    text = "host-bound, not judged";
  } else if (difference.direction == Direction::Same) {
    text = to_string(difference.direction);
  } else {
    text = to_string(difference.direction);
    switch (difference.verdict) {
      case VerdictKind::Regression:
      case VerdictKind::Improvement: text += ", clearly"; break;
      case VerdictKind::Noisy: text += ", within noise"; break;
      case VerdictKind::Pass: text += ", within tolerance"; break;
      case VerdictKind::Informational: text += ", not gating"; break;
      case VerdictKind::Failed:
      case VerdictKind::Missing:
      case VerdictKind::New: break;
    }
  }
  return text + (difference.contention.empty() ? "" : ", under contention");
}

// A value as the table shows it: "469.8 *" where `check --confirm` measured it again (the median of the fresh
// processes, which check judged).
inline std::string value_text(const ComparisonRow& row, std::size_t run) {
  return readable_figure(row.values[run]) + (row.remeasured[run] ? " *" : "");
}

// What the judgements mean, each said once for the whole table.
inline void print_legend(const Comparison& comparison, std::ostream& out) {
  std::set<std::string> not_comparable;
  std::set<std::string> contention;
  bool host_bound_one_run = false;
  bool host_bound_elsewhere = false;
  bool remeasured = false;
  bool not_gating = false;
  for (const ComparisonRow& row : comparison.rows) {
    for (bool again : row.remeasured) remeasured = remeasured || again;
    for (const Difference& d : row.against_first) {
      if (d.standing == Standing::NotComparable) not_comparable.insert(d.not_comparable);
      host_bound_one_run = host_bound_one_run || d.standing == Standing::HostBoundOneRun;
      host_bound_elsewhere = host_bound_elsewhere || d.standing == Standing::HostBoundElsewhere;
      not_gating = not_gating || (d.standing == Standing::Judged && d.verdict == VerdictKind::Informational);
      if (!d.contention.empty()) contention.insert(d.contention);
    }
  }
  const std::string& first = comparison.runs.front().key;
  out << "\nbetter or worse: by each metric's direction; same where the ratio rounds to 1.000\n"
      << "clearly: as `gpubench check RUN --against " << first << "` judges it: past the figure's tolerance and past "
      << "what noise\n  moves it ("
      << (comparison.rules_path.empty()
              ? "no baseline of the node kind: the family's default tolerance and the runs' own repetitions"
              : "the run-to-run spread of " + comparison.rules_path + ", else the runs' own repetitions")
      << ")\nwithin tolerance, within noise: a change no larger than the figure's tolerance, or than noise makes\n";
  if (not_gating) {
    out << "not gating: the node kind's baseline does not gate the figure (its noise is too wide for its tolerance): "
           "shown, not judged\n";
  }
  if (host_bound_one_run) out << "host-bound, not judged: " << kHostBoundAgainstOneRun << "\n";
  if (host_bound_elsewhere) {
    out << "host-bound, other node: it measures the host (CPU, OS, virtualisation) as much as the GPU, and the runs "
           "are on\n  different nodes (told apart by their GPUs' UUIDs): not judged\n";
  }
  if (remeasured) {
    out << "*: measured again by `check --confirm` in fresh processes; the value is their median, the one check "
           "judged\n";
  }
  out << "geomean (summary): the geometric mean of the ratios, each taken so that above 1 is better\n";
  for (const std::string& why : not_comparable) out << "not comparable: " << why << "\n";
  for (const std::string& what : contention) out << "under contention: " << what << "\n";
  for (const ComparisonRow& row : comparison.rows) {
    for (std::size_t later = 0; later < row.against_first.size(); ++later) {
      if (row.against_first[later].method_change.empty()) continue;
      out << "another kernel: " << row.metric << ", " << comparison.runs[later + 1].key << " against "
          << comparison.runs[0].key << ": " << row.against_first[later].method_change << "\n";
    }
  }
}

// The figures not in every run, one line per family and set of runs: "nccl: 120 figures only in [2]".
inline void print_not_shared(const Comparison& comparison, std::ostream& out) {
  if (comparison.not_shared_by_family.empty()) return;
  out << "\nNot in every run (not compared; --json lists them):\n";
  for (const NotShared& n : comparison.not_shared_by_family) {
    out << "  " << n.family << ": " << n.figures << (n.figures == 1 ? " figure" : " figures") << " only in " << n.only_in
        << "\n";
  }
}

inline void print_summary(const RunSummary& summary, const std::string& first, std::ostream& out) {
  out << "\nPer family, " << summary.run << " against " << first << ":\n";
  bool any_not_comparable = false;
  bool any_host_bound = false;
  for (const FamilySummary& family : summary.families) {
    any_not_comparable |= family.not_comparable > 0;
    any_host_bound |= family.host_bound > 0;
  }
  TextTable table;
  table.add_column("family");
  for (const char* header : {"metrics", "better", "same", "worse", "clearly better", "clearly worse"}) {
    table.add_column(header, TextTable::Align::Right);
  }
  if (any_host_bound) table.add_column("host-bound", TextTable::Align::Right);
  if (any_not_comparable) table.add_column("not comparable", TextTable::Align::Right);
  table.add_column("geomean", TextTable::Align::Right);
  for (const FamilySummary& family : summary.families) {
    std::vector<std::string> cells = {family.family};
    for (int count :
         {family.metrics, family.better, family.same, family.worse, family.clearly_better, family.clearly_worse}) {
      cells.push_back(std::to_string(count));
    }
    if (any_host_bound) cells.push_back(std::to_string(family.host_bound));
    if (any_not_comparable) cells.push_back(std::to_string(family.not_comparable));
    cells.push_back(family.geomean_gain ? format_number(*family.geomean_gain, 3) : "-");
    table.add_row(std::move(cells));
  }
  table.print(out);
  const FamilySummary& all = summary.families.back();
  if (all.host_bound > 0) {
    out << "geomean leaves out the " << all.host_bound << " host-bound figure" << (all.host_bound == 1 ? "" : "s")
        << " (launch, sync and allocation calls, pageable copies): "
        << (summary.same_node ? "not judged against one run" : "the runs are on different nodes") << "\n";
  }
}

}  // namespace comparison_report_detail

inline void print_comparison_report(const Comparison& comparison, std::ostream& out) {
  using namespace comparison_report_detail;
  for (const ComparedRun& run : comparison.runs) out << run.key << " " << describe(run.label) << "\n";
  out << "\n";
  TextTable table;
  table.add_column("metric");
  table.add_column("unit");
  table.add_column("better");
  for (const ComparedRun& run : comparison.runs) table.add_column(run.key, TextTable::Align::Right);
  const ComparedRun& first = comparison.runs.front();
  for (std::size_t r = 1; r < comparison.runs.size(); ++r) {
    table.add_column(comparison.runs[r].key + "/" + first.key, TextTable::Align::Right);
    table.add_column(comparison.runs[r].key + " against " + first.key);
  }
  for (const ComparisonRow& row : comparison.rows) {
    std::vector<std::string> cells = {row.metric, row.unit, to_string(row.better)};
    for (std::size_t r = 0; r < row.values.size(); ++r) cells.push_back(value_text(row, r));
    for (std::size_t r = 1; r < row.values.size(); ++r) {
      cells.push_back(std::isfinite(row.ratios[r]) ? format_number(row.ratios[r], 3) : "-");
      cells.push_back(judged(row.against_first[r - 1], first, comparison.runs[r]));
    }
    table.add_row(cells);
  }
  if (table.empty()) {
    out << "no metric is in every run\n";
  } else {
    table.print(out);
    print_legend(comparison, out);
  }
  print_not_shared(comparison, out);
  if (comparison.rows.empty()) return;
  for (const RunSummary& summary : comparison.summaries) print_summary(summary, first.key, out);
}

inline nlohmann::json comparison_report_json(const Comparison& comparison) {
  nlohmann::json document = comparison_json(comparison);
  for (std::size_t r = 0; r < comparison.rows.size(); ++r) {
    const std::vector<Difference>& differences = comparison.rows[r].against_first;
    for (std::size_t later = 0; later < differences.size(); ++later) {
      nlohmann::json& judged = document["rows"][r]["against_first"][later];
      const Difference& d = differences[later];
      judged["apart"] = d.apart;
      judged["verdict"] = to_string(d.verdict);
      judged["clearly"] = d.clearly();
      judged["reason"] = d.reason;
      judged["tolerance"] = d.tolerance;
      judged["noise_band"] = d.noise_band;
      judged["host_bound"] = d.standing == Standing::HostBoundOneRun   ? "not_judged_against_one_run"
                             : d.standing == Standing::HostBoundElsewhere ? "other_node"
                                                                           : "";
      judged["remeasured"] = comparison.rows[r].remeasured[later + 1];
      if (!d.contention.empty()) judged["contention"] = d.contention;
      if (!differences[later].method_change.empty()) judged["method_change"] = differences[later].method_change;
      if (differences[later].direction == Direction::NotComparable) {
        judged["not_comparable"] = differences[later].not_comparable;
      }
    }
  }
  nlohmann::json summaries = nlohmann::json::array();
  for (const RunSummary& summary : comparison.summaries) {
    nlohmann::json families = nlohmann::json::array();
    for (const FamilySummary& f : summary.families) {
      families.push_back({{"family", f.family},
                          {"metrics", f.metrics},
                          {"better", f.better},
                          {"same", f.same},
                          {"worse", f.worse},
                          {"clearly_better", f.clearly_better},
                          {"clearly_worse", f.clearly_worse},
                          {"not_comparable", f.not_comparable},
                          {"host_bound", f.host_bound},
                          {"geomean_gain", f.geomean_gain ? nlohmann::json(*f.geomean_gain) : nullptr}});
    }
    summaries.push_back({{"run", summary.run}, {"same_node", summary.same_node}, {"families", families}});
  }
  document["summaries"] = summaries;
  nlohmann::json by_family = nlohmann::json::array();
  for (const NotShared& n : comparison.not_shared_by_family) {
    by_family.push_back({{"family", n.family}, {"only_in", n.only_in}, {"figures", n.figures}});
  }
  document["not_shared_by_family"] = by_family;
  document["rules"] = comparison.rules_path;
  nlohmann::json contention = nlohmann::json::array();
  for (const ComparedRun& run : comparison.runs) {
    for (const std::string& what : run.other_processes) contention.push_back({{"run", run.key}, {"contention", what}});
  }
  document["other_processes"] = contention;
  return document;
}

}  // namespace gpubench
