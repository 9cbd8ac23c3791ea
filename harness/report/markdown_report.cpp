#include "harness/report/markdown_report.hpp"

#include "harness/baseline/machine_kind.hpp"
#include "harness/report/escaped_text.hpp"
#include "harness/report/figure_text.hpp"

namespace gpubench {
namespace {

// A table cell on one line, whose pipes do not end it.
std::string markdown_cell(const std::string& text) { return escaped_text(text, {{'|', "\\|"}, {'\n', " "}}); }

}  // namespace

void write_check_markdown(const CheckReport& report, std::ostream& out) {
  out << "### gpubench check: " << (report.passed() ? "PASS" : "FAIL") << "\n\n";
  out << "`" << markdown_cell(report.results_path) << "` (" << markdown_cell(report.host) << ") against `"
      << markdown_cell(report.baseline_path) << "` (" << markdown_cell(describe(report.kind)) << "): "
      << report.count(VerdictKind::Regression) << " regressions, " << report.count(VerdictKind::Failed) << " failed, "
      << report.count(VerdictKind::Noisy) << " noisy, " << report.count(VerdictKind::Missing) << " missing, "
      << report.count(VerdictKind::Informational) << " informational (not gating), " << report.count(VerdictKind::Improvement) << " improved, " << report.count(VerdictKind::Pass) << " passed.\n\n";
  out << "| verdict | metric | value | expected | unit | change | tolerance | why |\n";
  out << "| --- | --- | ---: | ---: | --- | ---: | ---: | --- |\n";
  for (const MetricVerdict& v : report.verdicts) {
    out << "| " << to_string(v.kind) << " | `" << markdown_cell(v.id) << "` | " << (v.value ? six_digits(*v.value) : "") << " | "
        << (v.expected ? six_digits(*v.expected) : "") << " | " << markdown_cell(v.unit) << " | "
        << (v.value && v.expected ? six_digits(100 * v.change) + " %" : "") << " | "
        << (v.tolerance > 0 ? six_digits(100 * v.tolerance) + " %" : "") << " | " << markdown_cell(v.reason) << " |\n";
  }
}

}  // namespace gpubench
