// gpubench show: a results document re-printed as the tools its figures come from print them (nccl-tests'
// tables, nvbandwidth's matrices), size sweeps as rows, everything else as a list; a watch document (`gpubench
// watch -o FILE`) as its figures over the job and its diagnosis, or its timeline as CSV (watch_show.hpp).
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
#include "harness/report/watch/watch_show.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"
#include "harness/watch/watch_document.hpp"

namespace gpubench {
namespace {

struct ShowArguments {
  std::string results;
  std::string format = "table";
  std::string filter;
};

bool is_watch_schema(const std::string& schema) { return schema.rfind("gpubench.watch/", 0) == 0; }

// Anything but a results or watch document (a baseline, a check report, watch's diagnosis alone, JSON of another
// program) is named as such, not as a results document of an unknown version.
ResultsDocument results_to_show(const nlohmann::json& document, const std::string& schema, const std::string& path) {
  if (schema.rfind("gpubench.results/", 0) != 0) {
    const std::string problem =
        schema.empty() ? "absent: not a gpubench results document" : "is '" + schema + "', not a results document";
    throw InputError(path, "schema", problem,
                     "show reads what `gpubench run -o FILE` writes, schema '" + std::string(kResultsSchema) +
                         "', and what `gpubench watch -o FILE` writes, schema '" + kWatchSchema + "'");
  }
  return results_from_json(document, path);
}

int show_watch(const nlohmann::json& json, const ShowArguments& args) {
  if (!args.filter.empty()) {
    throw UsageError("show: --filter selects the metrics of a results document; " + args.results +
                     " is a watch document, which show prints whole");
  }
  const WatchDocument document = watch_document_from_json(json, args.results);
  if (args.format == "csv") {
    write_watch_csv(document, std::cout);
    return kExitOk;
  }
  const WatchShow show = watch_show(document, args.results);
  if (args.format == "json") {
    std::cout << watch_show_json(show).dump(2) << "\n";
  } else if (args.format == "markdown") {
    write_watch_show_markdown(show, std::cout);
  } else {
    print_watch_show(show, std::cout);
  }
  return kExitOk;
}

int show_command(const ShowArguments& args) {
  const nlohmann::json document = read_json_file(args.results);
  const std::string schema = document_schema(document, args.results);
  if (is_watch_schema(schema)) return show_watch(document, args);
  ShowReport report;
  try {
    report = show_tables(results_to_show(document, schema, args.results), args.results, args.filter);
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
                                              "as nvbandwidth's matrices, size sweeps as rows; a watch document as "
                                              "each GPU's figures over the job and its diagnosis");
  show->add_option("results", args->results, "a results file (gpubench run -o FILE) or a watch document (gpubench "
                                              "watch -o FILE; --format csv: its timeline, a row per sample)")
      ->required();
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
