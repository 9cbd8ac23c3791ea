#pragma once
// What `gpubench compare` prints (comparison.hpp), for a person and for a script. For a person: the runs, a row per
// metric judged against the first run, what the judgements mean (said once, not on every row), the metrics not in
// every run, and last a summary per family of each later run. As JSON (gpubench.compare/1): json_report's
// comparison_json, with each judgement's `apart` and `not_comparable` and the `summaries` added. Header-only.
#include <nlohmann/json.hpp>

#include <cmath>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "harness/report/comparison.hpp"
#include "harness/report/figure_text.hpp"
#include "harness/report/json_report.hpp"
#include "harness/report/text_table.hpp"

namespace gpubench {
namespace comparison_report_detail {

// A later run against the first: "worse, beyond noise (p=0.029)", "better, within noise (p=0.412)", "worse, apart",
// "better, overlap", "same", "not comparable (1 and 2 GPUs)".
inline std::string judged(const Difference& difference, const ComparedRun& first, const ComparedRun& later) {
  if (difference.direction == Direction::NotComparable) {
    return "not comparable (" + std::to_string(first.gpu_count) + " and " + std::to_string(later.gpu_count) + " GPUs)";
  }
  const std::string direction = to_string(difference.direction);
  if (difference.direction == Direction::Same) return direction;
  if (!difference.p_value) return direction + (difference.apart ? ", apart" : ", overlap");
  const double p = *difference.p_value;
  const std::string p_text = p < 0.001 ? "p<0.001" : "p=" + format_number(p, 3);
  return direction + (difference.noise == Noise::Beyond ? ", beyond noise (" : ", within noise (") + p_text + ")";
}

// What the judgements mean, each said once for the whole table.
inline void print_legend(const Comparison& comparison, std::ostream& out) {
  std::set<std::pair<std::size_t, std::size_t>> untested;  // repetitions of the pairs too few to test
  bool tested = false;
  std::set<std::string> not_comparable;
  for (const ComparisonRow& row : comparison.rows) {
    for (const Difference& d : row.against_first) {
      if (d.direction == Direction::NotComparable) {
        not_comparable.insert(d.not_comparable);
      } else if (d.p_value) {
        tested = true;
      } else {
        untested.insert({d.first_repetitions, d.repetitions});
      }
    }
  }
  out << "\nbetter or worse: by each metric's direction; same where the ratio rounds to 1.000\n";
  if (tested) {
    out << "beyond or within the noise: a two-sided Mann-Whitney U test of the repetitions, p < "
        << format_number(kNoiseAlpha, 2) << "\n";
  }
  for (const auto& [first, later] : untested) {
    out << "apart or overlap, " << first << " and " << later << " repetitions (too few for the noise test, which needs "
        << kFewestRepetitionsToTest << " or more a side:\n  gpubench run --repetitions N): whether every repetition "
        << "of one run lies beyond every repetition of the\n  other, as two runs of the same thing do "
        << percent_text(chance_apart(first, later)) << " of the time\n";
  }
  if (tested || !untested.empty()) {
    out << "clearly better or worse (summary): beyond the noise or, too few repetitions to test, apart\n";
  }
  out << "geomean (summary): the geometric mean of the ratios, each taken so that above 1 is better\n";
  for (const std::string& why : not_comparable) out << "not comparable: " << why << "\n";
  for (const ComparisonRow& row : comparison.rows) {
    for (std::size_t later = 0; later < row.against_first.size(); ++later) {
      if (row.against_first[later].method_change.empty()) continue;
      out << "another kernel: " << row.metric << ", " << comparison.runs[later + 1].key << " against "
          << comparison.runs[0].key << ": " << row.against_first[later].method_change << "\n";
    }
  }
}

inline void print_summary(const RunSummary& summary, const std::string& first, std::ostream& out) {
  out << "\nPer family, " << summary.run << " against " << first << ":\n";
  bool any_not_comparable = false;
  for (const FamilySummary& family : summary.families) any_not_comparable |= family.not_comparable > 0;
  TextTable table;
  table.add_column("family");
  for (const char* header : {"metrics", "better", "same", "worse", "clearly better", "clearly worse"}) {
    table.add_column(header, TextTable::Align::Right);
  }
  if (any_not_comparable) table.add_column("not comparable", TextTable::Align::Right);
  table.add_column("geomean", TextTable::Align::Right);
  for (const FamilySummary& family : summary.families) {
    std::vector<std::string> cells = {family.family};
    for (int count :
         {family.metrics, family.better, family.same, family.worse, family.clearly_better, family.clearly_worse}) {
      cells.push_back(std::to_string(count));
    }
    if (any_not_comparable) cells.push_back(std::to_string(family.not_comparable));
    cells.push_back(family.geomean_gain ? format_number(*family.geomean_gain, 3) : "-");
    table.add_row(std::move(cells));
  }
  table.print(out);
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
    for (double value : row.values) cells.push_back(readable_figure(value));
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
  if (!comparison.not_shared.empty()) {
    out << "\nNot in every run (not compared):\n";
    for (const std::string& line : comparison.not_shared) out << "  " << line << "\n";
  }
  if (comparison.rows.empty()) return;
  for (const RunSummary& summary : comparison.summaries) print_summary(summary, first.key, out);
}

inline nlohmann::json comparison_report_json(const Comparison& comparison) {
  nlohmann::json document = comparison_json(comparison);
  for (std::size_t r = 0; r < comparison.rows.size(); ++r) {
    const std::vector<Difference>& differences = comparison.rows[r].against_first;
    for (std::size_t later = 0; later < differences.size(); ++later) {
      nlohmann::json& judged = document["rows"][r]["against_first"][later];
      judged["apart"] = differences[later].apart;
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
                          {"geomean_gain", f.geomean_gain ? nlohmann::json(*f.geomean_gain) : nullptr}});
    }
    summaries.push_back({{"run", summary.run}, {"families", families}});
  }
  document["summaries"] = summaries;
  return document;
}

}  // namespace gpubench
