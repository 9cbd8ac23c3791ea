// The machine-readable outputs of `gpubench check`.
#include <cmath>
#include <cstdio>

#include "harness/baseline/machine_kind.hpp"
#include "harness/report/check_reports.hpp"
#include "harness/report/xml_text.hpp"

namespace gpubench {
namespace {

std::string prometheus_label(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string number(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

}  // namespace

nlohmann::json check_json(const CheckReport& report) {
  nlohmann::json metrics = nlohmann::json::array();
  for (const MetricVerdict& v : report.verdicts) {
    nlohmann::json m{{"id", v.id}, {"verdict", to_string(v.kind)}, {"unit", v.unit}, {"reason", v.reason}};
    if (v.value) m["value"] = *v.value;
    if (v.expected) m["expected"] = *v.expected;
    if (v.value && v.expected) {
      m["change"] = v.change;
      m["noise"] = v.noise;
    }
    if (v.tolerance > 0) m["tolerance"] = v.tolerance;
    metrics.push_back(m);
  }
  nlohmann::json counts = nlohmann::json::object();
  for (VerdictKind k : {VerdictKind::Failed, VerdictKind::Regression, VerdictKind::Noisy, VerdictKind::Missing,
                        VerdictKind::Informational, VerdictKind::Improvement, VerdictKind::Pass, VerdictKind::New}) {
    counts[to_string(k)] = report.count(k);
  }
  return {{"schema", "gpubench.check/1"},
          {"results", report.results_path},
          {"host", report.host},
          {"baseline", report.baseline_path},
          {"machine_kind", describe(report.kind)},
          {"verdict", report.passed() ? "pass" : "fail"},
          {"counts", counts},
          {"metrics", metrics}};
}

void write_check_junit(const CheckReport& report, std::ostream& out) {
  int failures = report.count(VerdictKind::Regression) + report.count(VerdictKind::Failed);
  int skipped = report.count(VerdictKind::Noisy) + report.count(VerdictKind::Missing) + report.count(VerdictKind::Informational);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"gpubench check\" tests=\"" << report.verdicts.size() << "\" failures=\"" << failures << "\">\n";
  out << "  <testsuite name=\"" << xml_escape("gpubench." + report.host) << "\" tests=\"" << report.verdicts.size()
      << "\" failures=\"" << failures << "\" errors=\"0\" skipped=\"" << skipped << "\">\n";
  for (const MetricVerdict& v : report.verdicts) {
    const std::string family = v.id.substr(0, v.id.find('/'));
    out << "    <testcase classname=\"" << xml_escape("gpubench." + family) << "\" name=\"" << xml_escape(v.id) << "\" time=\"0\">";
    const std::string message = std::string(to_string(v.kind)) + ": " + v.reason;
    if (v.kind == VerdictKind::Regression || v.kind == VerdictKind::Failed) {
      out << "\n      <failure type=\"" << to_string(v.kind) << "\" message=\"" << xml_escape(message) << "\">"
          << xml_escape(message) << "</failure>\n    ";
    } else if (v.kind == VerdictKind::Noisy || v.kind == VerdictKind::Missing || v.kind == VerdictKind::Informational) {
      out << "\n      <skipped message=\"" << xml_escape(message) << "\"/>\n    ";
    } else {
      out << "\n      <system-out>" << xml_escape(message) << "</system-out>\n    ";
    }
    out << "</testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

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
    out << "| " << to_string(v.kind) << " | `" << markdown_cell(v.id) << "` | " << (v.value ? number(*v.value) : "") << " | "
        << (v.expected ? number(*v.expected) : "") << " | " << markdown_cell(v.unit) << " | "
        << (v.value && v.expected ? number(100 * v.change) + " %" : "") << " | "
        << (v.tolerance > 0 ? number(100 * v.tolerance) + " %" : "") << " | " << markdown_cell(v.reason) << " |\n";
  }
}

void write_check_prometheus(const CheckReport& report, std::ostream& out) {
  const std::string host = "host=\"" + prometheus_label(report.host) + "\"";
  out << "# HELP gpubench_check_passed 1 when the run has no regression and no failure against its baseline.\n";
  out << "# TYPE gpubench_check_passed gauge\n";
  out << "gpubench_check_passed{" << host << "} " << (report.passed() ? 1 : 0) << "\n";
  out << "# HELP gpubench_metric_value Measured value of a gpubench metric (median of repetitions).\n";
  out << "# TYPE gpubench_metric_value gauge\n";
  for (const MetricVerdict& v : report.verdicts) {
    if (!v.value) continue;
    out << "gpubench_metric_value{" << host << ",metric=\"" << prometheus_label(v.id) << "\",unit=\"" << prometheus_label(v.unit)
        << "\"} " << number(*v.value) << "\n";
  }
  out << "# HELP gpubench_metric_expected Baseline value of a gpubench metric.\n";
  out << "# TYPE gpubench_metric_expected gauge\n";
  for (const MetricVerdict& v : report.verdicts) {
    if (!v.expected) continue;
    out << "gpubench_metric_expected{" << host << ",metric=\"" << prometheus_label(v.id) << "\",unit=\""
        << prometheus_label(v.unit) << "\"} " << number(*v.expected) << "\n";
  }
  out << "# HELP gpubench_metric_verdict 1 for the verdict each metric got (pass, regression, improvement, noisy, missing, informational, failed, new).\n";
  out << "# TYPE gpubench_metric_verdict gauge\n";
  for (const MetricVerdict& v : report.verdicts) {
    out << "gpubench_metric_verdict{" << host << ",metric=\"" << prometheus_label(v.id) << "\",verdict=\"" << to_string(v.kind)
        << "\"} 1\n";
  }
}

}  // namespace gpubench
