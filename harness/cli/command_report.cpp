// gpubench report: one self-contained HTML file of charts, from a run or a series of runs (with their trends), or
// from a watch document (`gpubench watch -o FILE`): its timeline, per GPU, beside this node's ceilings
// (watch_report.hpp).
#include <filesystem>
#include <iostream>
#include <memory>

#include "benchmarks/catalogue.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/cli/filter_option.hpp"
#include "harness/cli/output_paths.hpp"
#include "harness/cli/results_folder.hpp"
#include "harness/report/html_report.hpp"
#include "harness/report/report_charts.hpp"
#include "harness/report/watch/watch_report.hpp"
#include "harness/results/results_io.hpp"
#include "harness/watch/watch_document.hpp"

namespace gpubench {
namespace {

struct ReportArguments {
  std::vector<std::string> results;
  std::string output;
  std::string trend;
  std::string retired_chart_js;  // --chart-js FILE: Chart.js drew the charts before gpubench drew them itself
};

int report_command(const ReportArguments& args, const std::atomic<bool>& stop) {
  if (!args.retired_chart_js.empty()) {
    std::cerr << "gpubench: report: --chart-js is no longer used and is ignored: gpubench draws the charts itself, as "
                 "SVG in the page, so that a report needs nothing installed; leave the option out\n";
  }
  refuse_outputs_over_inputs({{"--output", args.output}}, args.results);
  std::error_code not_a_folder;
  if (args.results.size() == 1 && !std::filesystem::is_directory(args.results[0], not_a_folder)) {
    // One file: a watch document is drawn as a timeline; anything else is read as a results document below.
    const nlohmann::json document = read_json_file(args.results[0]);
    if (document_schema(document, args.results[0]).rfind("gpubench.watch/", 0) == 0) {
      const WatchDocument watch = watch_document_from_json(document, args.results[0]);
      write_text_atomically(args.output, [&](std::ostream& out) { write_watch_report(watch, args.results[0], out); });
      return kExitOk;
    }
  }
  std::vector<SourcedResults> runs = results_named(args.results, "report", stop);
  // The headline metrics whose trends are drawn: by default the figures that decide acceptance, the catalogue's
  // choice of what says most about a node in the fewest figures.
  const IdPattern trend(args.trend.empty() ? acceptance_filter(family_catalogue()) : args.trend);
  const ReportPage page = report_page(std::move(runs), trend);
  write_text_atomically(args.output, [&](std::ostream& out) { write_html_report(page, out); });
  return kExitOk;
}

}  // namespace

void add_report_command(CLI::App& app, CommandState& state) {
  auto args = std::make_shared<ReportArguments>();
  CLI::App* report = app.add_subcommand(
      "report", "write one self-contained HTML file of charts: figures against size, GEMM against the peak, GPU pairs "
                "as heatmaps, stress telemetry, and with several runs the trends of the headline metrics; or a watch "
                "document's timeline against this node's ceilings, with its diagnosis");
  report->add_option("results", args->results, "one or more results files (gpubench run -o FILE), or folders of them "
                                               "(searched with their subfolders); the last to start is shown in full, "
                                               "all of them in the trends. Or one watch document (gpubench watch -o "
                                               "FILE)")
      ->required()
      ->check(CLI::ExistingPath);
  report->add_option("-o,--output", args->output, "the HTML file to write")->required();
  // Retired: accepted with a note, so that a job that still passes it keeps its report; not in --help.
  report->add_option("--chart-js", args->retired_chart_js)->group("");
  report->add_option("--trend", args->trend,
                     "the metrics whose trend over the runs is drawn, a regular expression (default: the figures that "
                     "decide acceptance)")
      ->check(kFilterPattern);
  report->callback([args, &state] { state.exit_code = report_command(*args, *state.stop); });
}

}  // namespace gpubench
