#pragma once
// Every output of `gpubench check`: the console table, and the JSON, JUnit XML, Markdown and Prometheus
// files for CI systems and dashboards. Each takes the same CheckReport.
#include <nlohmann/json.hpp>

#include <ostream>

#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

// Worst first; colour (red regressions and failures, yellow noisy/missing, green passes) when `colour`. The
// summary line counts every verdict, informational (not gating) among them.
void print_check_console(const CheckReport& report, std::ostream& out, bool colour);
nlohmann::json check_json(const CheckReport& report);
// One <testcase> per metric: regressions and failures are <failure>; noisy, missing and informational are
// <skipped>, with the reason as message.
void write_check_junit(const CheckReport& report, std::ostream& out);
// A summary line and a table, for a CI job summary.
void write_check_markdown(const CheckReport& report, std::ostream& out);
// node_exporter textfile-collector format: value, expected and a verdict gauge per metric.
void write_check_prometheus(const CheckReport& report, std::ostream& out);

}  // namespace gpubench
