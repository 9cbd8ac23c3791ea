#include "harness/report/markdown_report.hpp"

#include "harness/baseline/gating.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/report/change_text.hpp"
#include "harness/report/check_console.hpp"
#include "harness/report/escaped_text.hpp"
#include "harness/report/figure_text.hpp"
#include "harness/report/markdown_code.hpp"
#include "harness/report/show_cell_text.hpp"
#include "harness/verdict/contention.hpp"

namespace gpubench {
namespace {

// A table cell on one line, whose pipes do not end it.
std::string markdown_cell(const std::string& text) { return escaped_text(text, {{'|', "\\|"}, {'\n', " "}}); }

// Text outside code spans, whose '*' (the size in "pcie/h2d/pinned/*/gpu0/bandwidth"), backslashes, backquotes
// and '<' must not start emphasis, an escape, code or HTML.
std::string markdown_text(const std::string& text) {
  return escaped_text(text, {{'|', "\\|"}, {'\n', " "}, {'*', "\\*"}, {'\\', "\\\\"}, {'`', "\\`"}, {'<', "&lt;"}});
}

}  // namespace

void write_check_markdown(const CheckReport& report, std::ostream& out) {
  out << "### gpubench check: " << (report.passed() ? "PASS" : "FAIL")
      << (report.unjudged_deciding.empty() ? "" : " (NOT ALL JUDGED)") << "\n\n";
  out << markdown_code(report.results_path, false) << " (" << markdown_text(report.host) << ") against "
      << markdown_code(report.baseline_path, false) << " (" << markdown_text(describe(report.kind)) << "): "
      << counted(static_cast<std::size_t>(report.count(VerdictKind::Regression)), "regression", "regressions") << ", " << report.count(VerdictKind::Failed) << " failed, "
      << report.count(VerdictKind::Noisy) << " noisy, " << report.count(VerdictKind::Missing) << " missing, "
      << report.count(VerdictKind::Informational) << " informational (not gating), "
      << report.count(VerdictKind::Improvement) << " improved, " << report.count(VerdictKind::Pass) << " passed.\n\n";
  if (report.left_out_by_filter > 0) {
    out << report.left_out_by_filter << " of the baseline's figures " << (report.left_out_by_filter == 1 ? "was" : "were")
        << " left out by the run's own " << markdown_code("--filter " + report.run_filter, false) << ".\n\n";
  }
  if (!report.unjudged_deciding.empty()) {
    const std::size_t unjudged = report.unjudged_deciding.size();
    out << "**" << counted(unjudged, "figure that decides", "figures that decide")
        << " acceptance could not be judged** (no baseline gates "
        << (unjudged == 1 ? "it, so it passes whatever it measured" : "them, so they pass whatever they measured")
        << "):\n\n";
    for (const UnjudgedFigure& f : report.unjudged_deciding) {
      out << "- " << markdown_code(f.id, false) << ": " << markdown_text(f.reason) << "\n";
    }
    out << "\n";
  }
  out << "| verdict | metric | value | expected | unit | change | tolerance | gates at | why | judged by |\n";
  out << "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | --- | --- |\n";
  for (const MetricVerdict& v : report.verdicts) {
    out << "| " << verdict_text(v) << " | " << markdown_code(v.id, true) << " | " << (v.value ? six_digits(*v.value) : "") << " | "
        << (v.expected ? six_digits(*v.expected) : "") << " | " << markdown_cell(v.unit) << " | "
        << change_text(v) << " | "
        << (v.tolerance > 0 ? six_digits(100 * v.tolerance) + " %" : "") << " | "
        << (v.gated_at ? gates_at_text(*v.gated_at) : "") << " | " << markdown_cell(v.reason) << " | "
        << markdown_cell(v.judged_by) << " |\n";
  }
}

void write_show_markdown(const ShowReport& report, std::ostream& out) {
  out << "### gpubench show\n\n" << markdown_text(describe(report.run)) << "\n";
  for (const std::string& id : report.remeasured) out << "\n" << kRemeasuredNote << markdown_code(id, false) << "\n";
  if (report.tables.empty()) out << "\nNo metric, failure or skip to show.\n";
  for (const ShowTable& table : report.tables) {
    out << "\n#### " << markdown_text(table.title) << "\n\n|";
    for (const ShowColumn& column : table.columns) {
      out << " " << markdown_text((column.group.empty() ? "" : column.group + " ") + column_header(column)) << " |";
    }
    out << "\n|";
    for (std::size_t c = 0; c < table.columns.size(); ++c) out << (numeric_column(table, c) ? " ---: |" : " --- |");
    out << "\n";
    for (const std::vector<ShowCell>& row : table.rows) {
      out << "|";
      for (const ShowCell& cell : row) out << " " << markdown_text(readable_cell(cell)) << " |";
      out << "\n";
    }
  }
}

}  // namespace gpubench
