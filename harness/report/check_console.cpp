#include "harness/report/check_console.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "harness/baseline/gating.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/report/change_text.hpp"
#include "harness/report/figure_text.hpp"
#include "harness/report/text_table.hpp"
#include "harness/verdict/contention.hpp"

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

// At a glance a reason is cut so that its row fits the terminal (JSON, Markdown and --all keep it whole): whole, a
// regression judged by another GPU count's baseline ran to about 400 characters. Never cut shorter than this.
constexpr std::size_t kShortestGlanceReason = 40;
// The run's own --filter is cut to this many characters in the summary.
constexpr std::size_t kGlanceFilter = 72;

std::string at_most(const std::string& text, std::size_t characters) {
  if (text.size() <= characters) return text;
  std::size_t cut = characters - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return text.substr(0, cut) + "...";
}

// A reason as the glance shows it: without its opening "-40.0 % against 4363 GB/s: ", which the columns say, and at
// most `characters` long (whole when no width is known).
std::string glance_reason(const std::string& reason, std::optional<std::size_t> characters) {
  const std::size_t colon = reason.find(": ");
  const bool opens_with_change = colon != std::string::npos && !reason.empty() &&
                                 (reason[0] == '+' || reason[0] == '-') && reason.find(" against ") < colon;
  const std::string text = one_line(opens_with_change ? reason.substr(colon + 2) : reason);
  return characters ? at_most(text, std::max(*characters, kShortestGlanceReason)) : text;
}

// The widest line of a table as printed.
std::size_t printed_width(const TextTable& table) {
  std::ostringstream text;
  table.print(text);
  std::istringstream lines(text.str());
  std::size_t widest = 0;
  for (std::string line; std::getline(lines, line);) widest = std::max(widest, line.size());
  return widest;
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
    std::string which;
    for (const MetricVerdict& v : report.verdicts) {
      if (!v.method_change.empty()) which += "\n  " + v.id + ": " + v.method_change;
    }
    out << "kernels  " << other_kernels << " figure" << (other_kernels == 1 ? " was" : "s were")
        << " measured with another algorithm or launch than the baseline's (a cause to weigh before the GPU):" << which
        << "\n";
  }
  if (!report.version_changes.empty()) {
    std::string changes;
    for (const std::string& change : report.version_changes) changes += (changes.empty() ? "" : ", ") + change;
    out << "versions " << changes << " (the baseline's, then the run's: a new library can move the figures)\n";
  }
  out << "\n";
}

}  // namespace

std::string counted(std::size_t count, const std::string& singular, const std::string& plural) {
  return std::to_string(count) + " " + (count == 1 ? singular : plural);
}

void print_check_console(const CheckReport& report, std::ostream& out, bool colour, bool every_figure,
                         std::optional<std::size_t> width) {
  print_baselines(report, out);
  std::vector<const MetricVerdict*> listed;
  for (const MetricVerdict& v : report.verdicts) {
    if (every_figure || needs_attention(v.kind)) listed.push_back(&v);
  }
  if (!listed.empty()) {
    const auto columns = [&](bool with_reason) {
      TextTable table;
      table.add_column("verdict");
      table.add_column("metric");
      table.add_column("value", TextTable::Align::Right);
      table.add_column("expected", TextTable::Align::Right);
      table.add_column("unit");
      table.add_column("change", TextTable::Align::Right);
      table.add_column("gates at", TextTable::Align::Right);
      if (with_reason) table.add_column("why");
      return table;
    };
    const auto cells = [&](const MetricVerdict& v) {
      // A figure `check --confirm` measured again shows the fresh processes' median, marked.
      return std::vector<std::string>{verdict_text(v), v.id, figure(v.value) + (v.first_value ? " *" : ""),
                                      figure(v.expected), v.unit, change_text(v),
                                      v.gated_at ? gates_at_text(*v.gated_at) : ""};
    };
    TextTable without_reasons = columns(false);
    for (const MetricVerdict* v : listed) without_reasons.add_row(cells(*v));
    std::optional<std::size_t> reason_width;
    const std::size_t taken = printed_width(without_reasons) + 2;  // the columns, and the gap before the reason
    if (width && !every_figure) reason_width = *width > taken ? *width - taken : 0;
    TextTable table = columns(true);
    for (const MetricVerdict* v : listed) {
      std::vector<std::string> row = cells(*v);
      row.push_back(every_figure ? one_line(v->reason) : glance_reason(v->reason, reason_width));
      table.add_row(std::move(row));
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
  bool remeasured = false;
  std::set<std::string> contention;
  int under_contention = 0;
  for (const MetricVerdict* v : listed) remeasured = remeasured || v->first_value.has_value();
  for (const MetricVerdict& v : report.verdicts) {
    if (v.contention.empty()) continue;
    under_contention += v.kind == VerdictKind::Regression;
    std::istringstream each(v.contention);
    for (std::string one; std::getline(each, one, ';');) contention.insert(one.substr(one.find_first_not_of(' ')));
  }
  if (remeasured) {
    out << "* measured again by --confirm in fresh processes: the value is their median, which was judged (--json "
           "keeps the first as first_value)\n";
  }
  for (const std::string& what : contention) out << "not idle: " << what << "\n";
  if (remeasured || !contention.empty()) out << "\n";
  const int regressions = report.count(VerdictKind::Regression);
  out << (report.passed() ? "PASS" : "FAIL") << (report.unjudged_deciding.empty() ? "" : " (NOT ALL JUDGED)") << ": ";
  if (under_contention > 0) {
    out << counted(static_cast<std::size_t>(under_contention), "regression", "regressions")
        << " under contention (another process used the GPU), "
        << counted(static_cast<std::size_t>(regressions - under_contention), "GPU regression", "GPU regressions");
  } else {
    out << counted(static_cast<std::size_t>(regressions), "regression", "regressions");
  }
  out << ", " << report.count(VerdictKind::Failed) << " failed, "
      << report.count(VerdictKind::Noisy) << " noisy, " << report.count(VerdictKind::Missing) << " missing, "
      << report.count(VerdictKind::Informational) << " informational (not gating), "
      << report.count(VerdictKind::Improvement) << " improved, " << report.count(VerdictKind::Pass) << " passed, "
      << report.count(VerdictKind::New) << " not in the baseline\n";
  const std::size_t unlisted = report.verdicts.size() - listed.size();
  if (unlisted > 0) out << unlisted << " passed, informational or new figures not listed (--all lists every figure)\n";
  if (report.left_out_by_filter > 0) {
    out << report.left_out_by_filter << " of the baseline's figures left out by the run's own --filter '"
        << at_most(report.run_filter, kGlanceFilter) << "'\n";
  }
  if (report.unjudged_deciding.empty()) return;
  const std::size_t unjudged = report.unjudged_deciding.size();
  out << counted(unjudged, "figure", "figures") << (unjudged == 1 ? " that decides" : " that decide")
      << " acceptance could not be judged (no baseline gates " << (unjudged == 1 ? "it: it passes" : "them: they pass")
      << " whatever " << (unjudged == 1 ? "it measures" : "they measure") << "):\n";
  for (const UnjudgedFigure& f : report.unjudged_deciding) {
    const std::size_t taken = 4 + f.id.size();
    const std::optional<std::size_t> room =
        width ? std::optional<std::size_t>(*width > taken ? *width - taken : 0) : std::nullopt;
    out << "  " << f.id << ": " << (every_figure ? one_line(f.reason) : glance_reason(f.reason, room)) << "\n";
  }
}

}  // namespace gpubench
