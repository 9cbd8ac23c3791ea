// gpubench compare: runs side by side, ratios against the first.
#include <iostream>
#include <memory>

#include "harness/baseline/machine_kind.hpp"
#include "harness/cli/baseline_location.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/cli/filter_option.hpp"
#include "harness/cli/results_folder.hpp"
#include "harness/report/comparison.hpp"
#include "harness/report/comparison_report.hpp"
#include "harness/results/input_error.hpp"

namespace gpubench {
namespace {

struct CompareArguments {
  std::vector<std::string> results;
  std::string filter;
  std::string sort = "metric";
  bool json = false;
};

int compare_command(const CompareArguments& args, const std::atomic<bool>& stop) {
  const std::vector<SourcedResults> runs = results_named(args.results, "compare", stop);
  if (runs.size() < 2) {
    throw UsageError("compare needs two or more runs: give two results files or more, or a folder that holds them");
  }
  // The first run's node kind's baseline, where check finds it ($GPUBENCH_BASELINES, or the installed ones), lends
  // its rules, as to `check --against`.
  BaselineChoice choice;
  try {
    choice = kind_baseline(machine_kind_of(runs.front().results, runs.front().path), "", true, "compare");
  } catch (const InputError& error) {
    std::cerr << "gpubench: compare: no baseline lends its rules (" << error.what()
              << "): the family's default tolerances and the runs' repetitions judge\n";
  }
  const ComparisonRules rules{choice.path.empty() ? nullptr : &choice.baseline, choice.path, choice.same_model};
  Comparison comparison;
  try {
    comparison = compare_runs(runs, args.filter, args.sort, rules);
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
  if (args.json) {
    std::cout << comparison_report_json(comparison).dump(2) << "\n";
  } else {
    print_comparison_report(comparison, std::cout);
  }
  return kExitOk;
}

}  // namespace

void add_compare_command(CLI::App& app, CommandState& state) {
  auto args = std::make_shared<CompareArguments>();
  CLI::App* compare = app.add_subcommand("compare", "show runs side by side, with ratios against the first");
  compare->add_option("results", args->results,
                      "two or more results files, or folders of them (searched with their subfolders; each folder's "
                      "runs oldest first)")
      ->required()
      ->check(CLI::ExistingPath);
  compare->add_option("--filter", args->filter, "only metrics whose id matches this regular expression")
      ->check(kFilterPattern);
  compare->add_option("--sort", args->sort, "metric (by id) or ratio (largest difference first)")->check(CLI::IsMember({"metric", "ratio"}));
  compare->add_flag("--json", args->json, "print JSON");
  compare->callback([args, &state] { state.exit_code = compare_command(*args, *state.stop); });
}

}  // namespace gpubench
