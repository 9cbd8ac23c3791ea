// gpubench report: one self-contained HTML file of charts, from a run or a series of runs (with their trends).
#include <sys/stat.h>

#include <cstdlib>
#include <memory>

#include "benchmarks/catalogue.hpp"
#include "harness/cli/cli_support.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/cli/filter_option.hpp"
#include "harness/cli/output_paths.hpp"
#include "harness/report/html_report.hpp"
#include "harness/report/report_charts.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {
namespace {

struct ReportArguments {
  std::vector<std::string> results;
  std::string output;
  std::string chart_js;
  std::string trend;
};

// --chart-js, else $GPUBENCH_CHART_JS, else where CMake found Chart.js when gpubench was configured
// (GPUBENCH_CHART_JS, harness/CMakeLists.txt).
std::string chart_library_path(const std::string& option) {
  if (!option.empty()) return option;
  if (const char* variable = std::getenv("GPUBENCH_CHART_JS"); variable != nullptr && *variable != '\0') return variable;
  return GPUBENCH_CHART_JS;
}

std::string read_chart_library(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) {
    throw InputError(path, "", "Chart.js not found",
                     "install Debian's package libjs-chart.js (apt-get install libjs-chart.js), or name a Chart.js 3 "
                     "file with --chart-js FILE or GPUBENCH_CHART_JS=FILE");
  }
  return read_regular_file(path);
}

int report_command(const ReportArguments& args, const std::atomic<bool>& stop) {
  refuse_outputs_over_inputs({{"--output", args.output}}, args.results);
  std::vector<SourcedResults> runs = load_results_files(args.results, stop);
  const std::string library_path = chart_library_path(args.chart_js);
  const std::string library = read_chart_library(library_path);
  // The headline metrics whose trends are drawn: by default the figures that decide acceptance, the catalogue's
  // choice of what says most about a node in the fewest figures.
  const IdPattern trend(args.trend.empty() ? acceptance_filter(family_catalogue()) : args.trend);
  const ReportPage page = report_page(std::move(runs), trend);
  try {
    write_text_atomically(args.output, [&](std::ostream& out) { write_html_report(page, library, out); });
  } catch (const std::invalid_argument& error) {  // thrown before anything is written
    throw InputError(library_path, "", error.what());
  }
  return kExitOk;
}

}  // namespace

void add_report_command(CLI::App& app, CommandState& state) {
  auto args = std::make_shared<ReportArguments>();
  CLI::App* report = app.add_subcommand(
      "report", "write one self-contained HTML file of charts: figures against size, GEMM against the peak, GPU pairs "
                "as heatmaps, stress telemetry, and with several runs the trends of the headline metrics");
  report->add_option("results", args->results, "one or more results files (gpubench run -o FILE); the last to start is "
                                               "shown in full, all of them in the trends")
      ->required()
      ->check(CLI::ExistingFile);
  report->add_option("-o,--output", args->output, "the HTML file to write")->required();
  report->add_option("--chart-js", args->chart_js,
                     "Chart.js 3 to inline (default: $GPUBENCH_CHART_JS, else " GPUBENCH_CHART_JS ")");
  report->add_option("--trend", args->trend,
                     "the metrics whose trend over the runs is drawn, a regular expression (default: the figures that "
                     "decide acceptance)")
      ->check(kFilterPattern);
  report->callback([args, &state] { state.exit_code = report_command(*args, *state.stop); });
}

}  // namespace gpubench
