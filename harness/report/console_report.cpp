#include "harness/report/console_report.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "benchmarks/common/device_selection.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/report/figure_text.hpp"
#include "harness/report/show_cell_text.hpp"
#include "harness/report/text_table.hpp"

namespace gpubench {
namespace {

// A reason on one line (a failure's reason may hold lines of a log): lines are coloured one verdict each.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

std::string where(const Finding& finding) {
  return finding.gpus.empty() ? "node" : "GPU " + format_device_list(finding.gpus);
}

// Upper case from warning up, so that what needs doing stands out.
std::string severity_label(Severity severity) {
  std::string label = severity_name(severity);
  if (severity >= Severity::Warning) {
    for (char& c : label) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return label;
}

}  // namespace

void print_fleet(const FleetReport& report, std::ostream& out) {
  out << report.nodes << " runs from " << report.distinct_nodes
      << (report.distinct_nodes == 1 ? " node" : " nodes") << " (told apart by their GPUs' UUIDs): "
      << report.metrics_compared << " figures judged against the fleet median\n";
  if (report.distinct_nodes == 1 && report.nodes > 1) {
    out << "note: every run comes from one host (the same GPUs), so a \"node\" outlier is one run of that machine "
           "against its others\n";
  }
  if (const int n = report.unjudged_count(FleetUnjudged::HostBound); n > 0) {
    out << n << " host-bound figures not judged across nodes or between GPUs: they measure the host (launch, sync and "
        << "allocation costs, pageable copies) as much as the GPU\n";
  }
  if (const int n = report.unjudged_count(FleetUnjudged::NotGating); n > 0) {
    out << n << " figures not judged: the node kind's baseline does not gate them (too noisy between runs)\n";
  }
  if (const int n = report.unjudged_count(FleetUnjudged::TooFewNodes); n > 0) {
    out << n << " figures measured by fewer than 3 runs: no fleet median to hold them against (a node's GPUs are still "
        << "held against each other)\n";
  }
  if (!report.kind_baseline) {
    out << "no baseline of this node kind: each figure's noise is judged from the runs alone\n";
  }
  for (const UnjudgedFleetFigure& f : report.unjudged) {
    if (f.decides_acceptance && f.why != FleetUnjudged::TooFewNodes) {
      out << "not judged, though it decides acceptance: " << f.metric << ": " << f.reason << "\n";
    }
  }
  const auto print_findings = [&out](const std::vector<FleetFinding>& findings) {
    TextTable table;
    for (const char* h : {"scope", "host", "metric", "value", "reference", "unit", "why"}) table.add_column(h);
    for (const FleetFinding& f : findings) {
      table.add_row({f.scope, f.host, f.metric, format_number(f.value, 2), format_number(f.reference, 2), f.unit,
                     f.reason});
    }
    table.print(out);
  };
  if (report.findings.empty()) {
    out << "no outliers\n";
  } else {
    print_findings(report.findings);
  }
  if (!report.within_noise.empty()) {
    out << "\npast the tolerance but within the noise (not failing):\n";
    print_findings(report.within_noise);
  }
}

void print_acceptance(const AcceptanceReport& report, std::ostream& out) {
  const auto print_stage = [&out](const std::string& scope, const StageResult& s) {
    out << "  " << scope << "  " << s.stage << ": " << (s.skipped ? "skipped" : to_string(s.verdict)) << "\n";
    for (const std::string& r : s.reasons) out << "      " << r << "\n";
  };
  out << "\nAcceptance";
  if (!report.level.empty()) {
    out << ", level " << report.level << ":";
    for (std::size_t r = 0; r < report.level_runs.size(); ++r) out << (r == 0 ? " " : "; ") << report.level_runs[r];
  }
  out << "\n";
  for (const StageResult& s : report.node_stages) print_stage("node", s);
  for (const GpuAcceptance& gpu : report.gpus) {
    const std::string name = "GPU " + std::to_string(gpu.gpu.index);
    for (const StageResult& s : gpu.stages) print_stage(name, s);
    out << "  " << name << " verdict: " << to_string(gpu.verdict) << " (" << identity_text(gpu.gpu) << ")\n";
  }
  out << "baseline: " << report.baseline << "\nnode verdict: " << to_string(report.node_verdict)
      << (report.node_verdict == Grade::Fail ? " (do not put this node into service)" : "") << "\n";
}

void print_findings(const std::vector<Finding>& findings, const std::vector<GpuIdentity>& identities, std::ostream& out) {
  int counts[4] = {};
  std::size_t where_width = 0;
  std::size_t check_width = 0;
  for (const Finding& f : findings) {
    ++counts[static_cast<int>(f.severity)];
    where_width = std::max(where_width, where(f).size());
    check_width = std::max(check_width, f.check.size());
  }
  out << "gpubench doctor: " << counts[static_cast<int>(Severity::Critical)] << " critical, "
      << counts[static_cast<int>(Severity::Warning)] << " warning, " << counts[static_cast<int>(Severity::Info)] << " info, "
      << counts[static_cast<int>(Severity::Ok)] << " ok\n";
  const std::size_t severity_width = 8;  // "CRITICAL"
  const std::string indent(severity_width + where_width + check_width + 6, ' ');
  for (const Finding& f : findings) {
    const std::string label = severity_label(f.severity);
    const std::string place = where(f);
    out << label << std::string(severity_width - label.size() + 2, ' ') << place << std::string(where_width - place.size() + 2, ' ')
        << f.check << std::string(check_width - f.check.size() + 2, ' ') << f.finding << "\n";
    if (f.severity == Severity::Ok) continue;
    for (const GpuIdentity& gpu : identities) {
      if (std::find(f.gpus.begin(), f.gpus.end(), gpu.index) != f.gpus.end()) out << indent << "GPU " << gpu.index << ": " << identity_text(gpu) << "\n";
    }
    if (!f.fix.empty()) out << indent << "fix: " << f.fix << "\n";
  }
}

void print_show(const ShowReport& report, std::ostream& out) {
  out << describe(report.run) << "\n";
  for (const std::string& id : report.remeasured) out << kRemeasuredNote << id << "\n";
  if (report.tables.empty()) out << "\nno metric, failure or skip to show\n";
  for (const ShowTable& shown : report.tables) {
    out << "\n" << shown.title << "\n";
    TextTable table;
    for (std::size_t c = 0; c < shown.columns.size(); ++c) {
      const ShowColumn& column = shown.columns[c];
      const TextTable::Align align = numeric_column(shown, c) ? TextTable::Align::Right : TextTable::Align::Left;
      table.add_column(column_header(column), align, column.group);
    }
    for (const std::vector<ShowCell>& row : shown.rows) {
      std::vector<std::string> cells;
      for (const ShowCell& cell : row) cells.push_back(one_line(readable_cell(cell)));
      table.add_row(std::move(cells));
    }
    table.print(out);
  }
}

}  // namespace gpubench
