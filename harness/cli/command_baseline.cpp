// gpubench baseline create: a baseline from several runs of one kind of machine.
#include <iostream>
#include <memory>

#include "gpubench/version.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/baseline/ungated_headlines.hpp"
#include "harness/cli/cli_support.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/cli/output_paths.hpp"
#include "harness/report/baseline_summary.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/run_record.hpp"

namespace gpubench {
namespace {

// With fewer runs the spread between them is itself uncertain, and Student's t widens each metric's noise
// band to cover that: 3 runs give 22 x spread, 5 give 7.3 x, 10 give 4.3 x (3 x for a known spread). A band
// wider than 1.5 x the tolerance leaves the metric informational, so few runs leave steady figures ungated.
constexpr std::size_t kRecommendedRuns = 10;

struct BaselineArguments {
  std::vector<std::string> results;
  std::string output;
  std::string description;
};

int create_command(const BaselineArguments& args, const std::atomic<bool>& stop) {
  refuse_outputs_over_inputs({{"--output", args.output}}, args.results);
  const std::vector<SourcedResults> runs = load_results_files(args.results, stop);
  const Baseline baseline = build_baseline(runs, args.description, utc_now("%Y-%m-%dT%H:%M:%SZ"), kVersion);
  write_json_atomically(to_json(baseline), args.output);
  std::cout << "baseline for " << describe(baseline.kind) << ": " << baseline.metrics.size() << " metrics from "
            << runs.size() << " runs -> " << args.output << "\n\n";
  print_baseline_summary(baseline, std::cout);
  const std::vector<UngatedHeadline> ungated = ungated_headlines(baseline);
  if (!ungated.empty()) {
    const bool one = ungated.size() == 1;
    std::cerr << "gpubench: warning: " << ungated.size() << (one ? " figure that decides" : " figures that decide")
              << " acceptance will not gate, so check cannot see " << (one ? "it" : "them")
              << " regress: each moved between these "
                 "healthy runs by more than its tolerance allows (make its measurement steadier between processes, or "
                 "give more runs):\n";
    for (const UngatedHeadline& figure : ungated) std::cerr << "  " << figure.metric << ": " << figure.reason << "\n";
  }
  if (runs.size() < kRecommendedRuns) {
    std::cerr << "gpubench: warning: " << runs.size() << " runs; " << kRecommendedRuns
              << " or more are recommended: with fewer, the spread between runs is uncertain and the noise band that "
                 "covers it (t x spread) is wide, so fewer metrics gate\n";
  }
  return kExitOk;
}

}  // namespace

void add_baseline_command(CLI::App& app, CommandState& state) {
  CLI::App* baseline = app.add_subcommand("baseline", "make baselines");
  baseline->require_subcommand(1);
  auto args = std::make_shared<BaselineArguments>();
  CLI::App* create = baseline->add_subcommand("create", "robust statistics over several runs (or nodes) of one kind");
  create->footer(
      "Give 10 or more runs, each its own `gpubench run`. A metric gates (can fail a check) only when the baseline "
      "can tell a change not much past its tolerance from noise: its noise band, the run-to-run spread times "
      "Student's t for the 3-sigma tail (about 22 x spread for 3 runs, 7.3 x for 5 and 4.3 x for 10), must be "
      "within 1.5 x its tolerance. Other metrics stay informational, with the reason in the file and in check's "
      "output.");
  create->add_option("results", args->results, "results files of healthy runs, 10 or more recommended")->required()->check(CLI::ExistingFile);
  create->add_option("-o,--output", args->output, "baseline file to write")->required();
  create->add_option("--description", args->description, "how the runs were made (kept in the file)");
  create->callback([args, &state] { state.exit_code = create_command(*args, *state.stop); });
}

}  // namespace gpubench
