#include "harness/report/prometheus_report.hpp"

#include "harness/report/escaped_text.hpp"
#include "harness/report/figure_text.hpp"

namespace gpubench {
namespace {

// A label value as the text format quotes it.
std::string prometheus_label(const std::string& text) {
  return escaped_text(text, {{'\\', "\\\\"}, {'"', "\\\""}, {'\n', "\\n"}});
}

}  // namespace

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
        << "\"} " << six_digits(*v.value) << "\n";
  }
  out << "# HELP gpubench_metric_expected Baseline value of a gpubench metric.\n";
  out << "# TYPE gpubench_metric_expected gauge\n";
  for (const MetricVerdict& v : report.verdicts) {
    if (!v.expected) continue;
    out << "gpubench_metric_expected{" << host << ",metric=\"" << prometheus_label(v.id) << "\",unit=\""
        << prometheus_label(v.unit) << "\"} " << six_digits(*v.expected) << "\n";
  }
  out << "# HELP gpubench_metric_verdict 1 for the verdict each metric got (pass, regression, improvement, noisy, missing, informational, failed, new).\n";
  out << "# TYPE gpubench_metric_verdict gauge\n";
  for (const MetricVerdict& v : report.verdicts) {
    out << "gpubench_metric_verdict{" << host << ",metric=\"" << prometheus_label(v.id) << "\",verdict=\"" << to_string(v.kind)
        << "\"} 1\n";
  }
}

}  // namespace gpubench
