#include "harness/report/check_console.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "harness/baseline/gating.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/report/change_text.hpp"
#include "harness/report/figure_text.hpp"
#include "harness/report/text_table.hpp"

namespace gpubench {
namespace {

const char* colour_of(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::Failed:
    case VerdictKind::Regression: return "\033[31m";
    case VerdictKind::Noisy:
    case VerdictKind::Missing: return "\033[33m";
    case VerdictKind::Improvement:
    case VerdictKind::Pass: return "\033[32m";
    case VerdictKind::Informational:
    case VerdictKind::New: return "";
  }
  return "";
}

// A reason on one line (a failure's reason may hold lines of a log): lines are coloured one verdict each.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

std::string figure(const std::optional<double>& value) { return value ? readable_figure(*value) : ""; }

// At a glance a reason is cut to this many characters (JSON, Markdown and --all keep it whole), so that a row fits a
// terminal: whole, a regression judged by another GPU count's baseline ran to about 400.
constexpr std::size_t kGlanceReason = 72;

std::string at_most(const std::string& text, std::size_t characters) {
  if (text.size() <= characters) return text;
  std::size_t cut = characters - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return text.substr(0, cut) + "...";
}

// A reason as the glance shows it: without its opening "-40.0 % against 4363 GB/s: ", which the columns say.
std::string glance_reason(const std::string& reason) {
  const std::size_t colon = reason.find(": ");
  const bool opens_with_change = colon != std::string::npos && !reason.empty() &&
                                 (reason[0] == '+' || reason[0] == '-') && reason.find(" against ") < colon;
  return at_most(one_line(opens_with_change ? reason.substr(colon + 2) : reason), kGlanceReason);
}

// What a person must look at; passes, informational and new figures are counted in the summary.
bool needs_attention(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::Failed:
    case VerdictKind::Regression:
    case VerdictKind::Noisy:
    case VerdictKind::Missing:
    case VerdictKind::Improvement: return true;
    case VerdictKind::Informational:
    case VerdictKind::Pass:
    case VerdictKind::New: return false;
  }
  return true;
}


// Which baseline judged what: the node kind's, where it was made, the rules of --against, and each baseline of the
// same GPU model that judged the GPU's own figures the node kind's could not.
void print_baselines(const CheckReport& report, std::ostream& out) {
  out << "results  " << report.results_path << " (" << report.host << ")\nbaseline " << report.baseline_path << " ("
      << describe(report.kind) << ", made "
      << (report.baseline_made_here ? "on this node)"
                                    : "on other nodes: the host's launch, sync and allocation costs and pageable copies "
                                      "are shown, not judged)")
      << "\n";
  if (!report.rules_path.empty()) {
    out << "rules    " << report.rules_path << " (which figures gate against the run, and their run-to-run noise)\n";
  }
  std::map<std::string, int> lent;
  for (const MetricVerdict& v : report.verdicts) {
    if (!v.judged_by.empty() && v.judged_by != report.baseline_path) ++lent[v.judged_by];
  }
  for (const auto& [path, figures] : lent) {
    out << "also     " << path << " (the same GPU model's baseline judged " << figures << " of the GPUs' own figure"
        << (figures == 1 ? "" : "s") << " that " << report.baseline_path << " cannot)\n";
  }
  for (const std::string& gpu : report.gpus) out << "gpu      " << gpu << "\n";
  if (report.at_power_cap > 0) {
    out << "power    " << report.at_power_cap << " figure" << (report.at_power_cap == 1 ? " was" : "s were")
        << " measured at the power cap, as a power-capped GPU under sustained load is (a figure is marked only for a "
        << "thermal or hardware slowdown)\n";
  }
  int other_kernels = 0;
  for (const MetricVerdict& v : report.verdicts) other_kernels += v.method_change.empty() ? 0 : 1;
  if (other_kernels > 0) {
    out << "kernels  " << other_kernels << " figure" << (other_kernels == 1 ? " was" : "s were")
        << " measured with another algorithm or launch than the baseline's (each reason says which): a cause to "
        << "weigh before the GPU\n";
  }
  if (!report.version_changes.empty()) {
    std::string changes;
    for (const std::string& change : report.version_changes) changes += (changes.empty() ? "" : ", ") + change;
    out << "versions " << changes << " (the baseline's, then the run's: a new library can move the figures)\n";
  }
  out << "\n";
}

}  // namespace

void print_check_console(const CheckReport& report, std::ostream& out, bool colour, bool every_figure) {
  print_baselines(report, out);
  std::vector<const MetricVerdict*> listed;
  for (const MetricVerdict& v : report.verdicts) {
    if (every_figure || needs_attention(v.kind)) listed.push_back(&v);
  }
  if (!listed.empty()) {
    TextTable table;
    table.add_column("verdict");
    table.add_column("metric");
    table.add_column("value", TextTable::Align::Right);
    table.add_column("expected", TextTable::Align::Right);
    table.add_column("unit");
    table.add_column("change", TextTable::Align::Right);
    table.add_column("gates at", TextTable::Align::Right);
    table.add_column("why");
    for (const MetricVerdict* v : listed) {
      table.add_row({to_string(v->kind), v->id, figure(v->value), figure(v->expected), v->unit, change_text(*v),
                     v->gated_at ? gates_at_text(*v->gated_at) : "",
                     every_figure ? one_line(v->reason) : glance_reason(v->reason)});
    }
    std::ostringstream text;
    table.print(text);
    // Colour whole lines after layout, so escape codes do not upset the column widths.
    std::istringstream lines(text.str());
    std::size_t row = 0;
    for (std::string line; std::getline(lines, line); ++row) {
      if (colour && row >= 2 && row - 2 < listed.size()) {
        const char* c = colour_of(listed[row - 2]->kind);
        out << c << line << (*c ? "\033[0m" : "") << "\n";
      } else {
        out << line << "\n";
      }
    }
    out << "\n";
  }
  out << (report.passed() ? "PASS" : "FAIL") << (report.unjudged_deciding.empty() ? "" : " (NOT ALL JUDGED)") << ": "
      << report.count(VerdictKind::Regression) << " regressions, " << report.count(VerdictKind::Failed) << " failed, "
      << report.count(VerdictKind::Noisy) << " noisy, " << report.count(VerdictKind::Missing) << " missing, "
      << report.count(VerdictKind::Informational) << " informational (not gating), "
      << report.count(VerdictKind::Improvement) << " improved, " << report.count(VerdictKind::Pass) << " passed, "
      << report.count(VerdictKind::New) << " not in the baseline\n";
  const std::size_t unlisted = report.verdicts.size() - listed.size();
  if (unlisted > 0) out << unlisted << " passed, informational or new figures not listed (--all lists every figure)\n";
  if (report.left_out_by_filter > 0) {
    out << report.left_out_by_filter << " of the baseline's figures left out by the run's own --filter '"
        << at_most(report.run_filter, kGlanceReason) << "'\n";
  }
  if (report.unjudged_deciding.empty()) return;
  out << report.unjudged_deciding.size() << " figure" << (report.unjudged_deciding.size() == 1 ? "" : "s")
      << " that decide acceptance could not be judged (no baseline gates them: they pass whatever they measure):\n";
  for (const UnjudgedFigure& f : report.unjudged_deciding) {
    out << "  " << f.id << ": " << (every_figure ? one_line(f.reason) : glance_reason(f.reason)) << "\n";
  }
}

}  // namespace gpubench
