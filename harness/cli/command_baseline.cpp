// gpubench baseline create: a baseline from several runs of one kind of machine.
#include <iostream>
#include <memory>

#include "gpubench/version.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/cli/cli_support.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/run_record.hpp"

namespace gpubench {
namespace {

struct BaselineArguments {
  std::vector<std::string> results;
  std::string output;
  std::string description;
};

int create_command(const BaselineArguments& args) {
  const std::vector<SourcedResults> runs = load_results_files(args.results);
  const Baseline baseline = build_baseline(runs, args.description, utc_now("%Y-%m-%dT%H:%M:%SZ"), kVersion);
  write_json_atomically(to_json(baseline), args.output);
  std::cout << "baseline for " << describe(baseline.kind) << ": " << baseline.metrics.size() << " metrics from "
            << runs.size() << " runs -> " << args.output << "\n";
  if (runs.size() < 3) std::cerr << "gpubench: note: fewer than 3 runs; the spread it records is a rough guess\n";
  return kExitOk;
}

}  // namespace

void add_baseline_command(CLI::App& app, CommandState& state) {
  CLI::App* baseline = app.add_subcommand("baseline", "make baselines");
  baseline->require_subcommand(1);
  auto args = std::make_shared<BaselineArguments>();
  CLI::App* create = baseline->add_subcommand("create", "robust statistics over several runs (or nodes) of one kind");
  create->add_option("results", args->results, "results files of healthy runs, 3 or more")->required()->check(CLI::ExistingFile);
  create->add_option("-o,--output", args->output, "baseline file to write")->required();
  create->add_option("--description", args->description, "how the runs were made (kept in the file)");
  create->callback([args, &state] { state.exit_code = create_command(*args); });
}

}  // namespace gpubench
