// gpubench show: a results document re-printed as the tools its figures come from print them (nccl-tests'
// tables, nvbandwidth's matrices), size sweeps as rows, everything else as a list.
#include <iostream>
#include <memory>

#include "harness/cli/commands.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/cli/filter_option.hpp"
#include "harness/report/console_report.hpp"
#include "harness/report/csv_report.hpp"
#include "harness/report/json_report.hpp"
#include "harness/report/markdown_report.hpp"
#include "harness/report/show_tables.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {
namespace {

struct ShowArguments {
  std::string results;
  std::string format = "table";
  std::string filter;
};

// Anything but a results document (a baseline, a check report, JSON of another program) is named as such, not as
// a results document of an unknown version.
ResultsDocument read_results_to_show(const std::string& path) {
  const nlohmann::json document = read_json_file(path);
  const std::string schema = document_schema(document, path);
  if (schema.rfind("gpubench.results/", 0) != 0) {
    const std::string problem =
        schema.empty() ? "absent: not a gpubench results document" : "is '" + schema + "', not a results document";
    throw InputError(path, "schema", problem,
                     "show reads what `gpubench run -o FILE` writes, schema '" + std::string(kResultsSchema) + "'");
  }
  return results_from_json(document, path);
}

int show_command(const ShowArguments& args) {
  ShowReport report;
  try {
    report = show_tables(read_results_to_show(args.results), args.results, args.filter);
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
  if (args.format == "json") {
    std::cout << show_json(report).dump(2) << "\n";
  } else if (args.format == "csv") {
    write_show_csv(report, std::cout);
  } else if (args.format == "markdown") {
    write_show_markdown(report, std::cout);
  } else {
    print_show(report, std::cout);
  }
  return kExitOk;
}

}  // namespace

void add_show_command(CLI::App& app, CommandState& state) {
  auto args = std::make_shared<ShowArguments>();
  CLI::App* show = app.add_subcommand("show", "print a results document as tables: NCCL as nccl-tests does, GPU pairs "
                                              "as nvbandwidth's matrices, size sweeps as rows");
  show->add_option("results", args->results, "a results file (gpubench run -o FILE)")->required();
  CLI::Option* format = show->add_option("--format", args->format, "table (for a terminal), csv, json or markdown")
                            ->check(CLI::IsMember({"table", "csv", "json", "markdown"}));
  // --json as in every other command that prints a report.
  show->add_flag_callback("--json", [args] { args->format = "json"; }, "print JSON: the same as --format json")->excludes(format);
  show->add_option("--filter", args->filter,
                   "only metrics (and failures, skips) whose id matches this regular expression")
      ->check(kFilterPattern);
  show->callback([args, &state] { state.exit_code = show_command(*args); });
}

}  // namespace gpubench
