// gpubench check: a run against its baseline (or another run), or many runs against each other (--fleet).
#include <unistd.h>

#include <iostream>
#include <memory>

#include "harness/baseline/machine_kind.hpp"
#include "harness/cli/cli_support.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/report/check_reports.hpp"
#include "harness/report/text_table.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/micro_listing.hpp"
#include "harness/verdict/fleet.hpp"

namespace gpubench {
namespace {

struct CheckArguments {
  std::vector<std::string> results;
  std::string baseline;
  std::string against;
  bool fleet = false;
  bool json = false;
  bool no_colour = false;
  std::string junit;
  std::string markdown;
  std::string prometheus;
};

int fleet_command(const CheckArguments& args) {
  if (args.results.size() < 2) throw UsageError("--fleet needs the results of two or more nodes");
  const FleetReport report = analyse_fleet(load_results_files(args.results));
  if (args.json) {
    nlohmann::json findings = nlohmann::json::array();
    for (const FleetFinding& f : report.findings) {
      findings.push_back({{"scope", f.scope}, {"host", f.host}, {"source", f.source}, {"metric", f.metric}, {"value", f.value},
                          {"reference", f.reference}, {"deviation", f.deviation}, {"unit", f.unit}, {"reason", f.reason}});
      if (f.gpu) findings.back()["gpu"] = *f.gpu;
    }
    std::cout << nlohmann::json{{"nodes", report.nodes}, {"metrics_compared", report.metrics_compared}, {"outliers", findings}}.dump(2) << "\n";
  } else {
    std::cout << report.nodes << " runs, " << report.metrics_compared << " metrics with 3 or more nodes\n";
    TextTable table;
    for (const char* h : {"scope", "host", "metric", "value", "reference", "unit", "why"}) table.add_column(h);
    for (const FleetFinding& f : report.findings) {
      table.add_row({f.scope, f.host, f.metric, format_number(f.value, 2), format_number(f.reference, 2), f.unit, f.reason});
    }
    if (table.empty()) {
      std::cout << "no outliers\n";
    } else {
      table.print(std::cout);
    }
  }
  return report.findings.empty() ? kExitOk : kExitFailed;
}

int check_command(const CheckArguments& args) {
  if (args.fleet) return fleet_command(args);
  if (args.results.size() != 1) throw UsageError("check takes one results file (or several with --fleet)");
  const std::string& path = args.results[0];
  const ResultsDocument results = read_results_file(path);
  CheckReport report;
  if (!args.against.empty()) {
    const std::vector<SourcedResults> reference = load_results_files({args.against});
    const Baseline baseline = build_baseline(reference, "the run " + args.against, "", "");
    report = check_against_baseline(results, path, baseline, args.against);
  } else {
    const MachineKind kind = machine_kind_of(results, path);
    const std::string where = args.baseline.empty() ? default_baseline_location() : args.baseline;
    const BaselineChoice choice = choose_baseline(kind, where);
    if (choice.path.empty()) {
      std::string considered;
      for (const std::string& c : choice.considered) considered += "\n  " + c;
      throw InputError(where, "", "no baseline for " + describe(kind) + (considered.empty() ? " (no baseline files there)" : "; considered:" + considered),
                       "make one with `gpubench baseline create RUN1.json RUN2.json RUN3.json -o " + where + "/" +
                           baseline_file_name(kind) + "`, or check against another run with --against");
    }
    report = check_against_baseline(results, path, choice.baseline, choice.path);
  }
  if (!args.junit.empty()) write_text_atomically(args.junit, [&](std::ostream& out) { write_check_junit(report, out); });
  if (!args.markdown.empty()) write_text_atomically(args.markdown, [&](std::ostream& out) { write_check_markdown(report, out); });
  if (!args.prometheus.empty()) write_text_atomically(args.prometheus, [&](std::ostream& out) { write_check_prometheus(report, out); });
  if (args.json) {
    std::cout << check_json(report).dump(2) << "\n";
  } else {
    print_check_console(report, std::cout, !args.no_colour && isatty(STDOUT_FILENO));
  }
  return report.passed() ? kExitOk : kExitFailed;
}

}  // namespace

void add_check_command(CLI::App& app, CommandState& state) {
  auto args = std::make_shared<CheckArguments>();
  CLI::App* check = app.add_subcommand("check", "judge a run against its baseline; exit 1 on a regression or failure");
  check->add_option("results", args->results, "results file (several with --fleet)")->required()->check(CLI::ExistingFile);
  check->add_option("--baseline", args->baseline, "baseline file, or directory to choose from by GPU model, count and topology");
  check->add_option("--against", args->against, "another results file to use as the baseline")->check(CLI::ExistingFile);
  check->add_flag("--fleet", args->fleet, "compare runs from many nodes of one kind: flag slow nodes and slow GPUs");
  check->add_flag("--json", args->json, "print JSON instead of the table");
  check->add_flag("--no-color", args->no_colour, "no colour even on a terminal");
  check->add_option("--junit", args->junit, "also write JUnit XML (one test case per metric)");
  check->add_option("--markdown", args->markdown, "also write a Markdown summary");
  check->add_option("--prometheus", args->prometheus, "also write a node_exporter textfile");
  check->callback([args, &state] { state.exit_code = check_command(*args); });
}

}  // namespace gpubench
