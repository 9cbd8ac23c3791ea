// gpubench baseline create: a baseline from several runs of one kind of machine.
#include <algorithm>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gpubench/version.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/baseline/outlier_runs.hpp"
#include "harness/baseline/ungated_headlines.hpp"
#include "harness/cli/cli_support.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/cli/output_paths.hpp"
#include "harness/cli/results_folder.hpp"
#include "harness/report/baseline_summary.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/run_record.hpp"

namespace gpubench {
namespace {

// With fewer runs the spread between them is itself uncertain, and Student's t widens each metric's noise
// band to cover that: 3 runs give 22 x spread, 5 give 7.3 x, 10 give 4.3 x (3 x for a known spread). A metric gates
// at its band where that is wider than its tolerance, so few runs gate steady figures only loosely.
constexpr std::size_t kRecommendedRuns = 10;

struct BaselineArguments {
  std::vector<std::string> results;
  std::string output;
  std::string description;
  bool keep_outliers = false;
};

// Names on stderr each run that is not like the others (outlier_runs) and returns the runs to make the baseline of:
// without those, unless the user keeps them. What happened is added to `description`, which the file keeps.
std::vector<SourcedResults> screen_outliers(std::vector<SourcedResults> runs, bool keep, std::string& description) {
  if (runs.size() < kRunsToTellOutliers) {
    std::cerr << "gpubench: baseline create: " << runs.size() << (runs.size() == 1 ? " run" : " runs")
              << ": too few to tell a run that is not like the others (" << kRunsToTellOutliers
              << " or more are needed), so none is looked for\n";
    return runs;
  }
  const std::vector<OutlierRun> outliers = outlier_runs(runs);
  if (outliers.empty()) return runs;
  if (!keep && outliers.size() == runs.size()) {
    throw UsageError("each of the " + std::to_string(runs.size()) + " runs is worse than the others on a figure "
                     "deciding acceptance, so none would be left: give more healthy runs, or keep them with "
                     "--keep-outliers");
  }
  const bool one = outliers.size() == 1;
  const std::string what = keep ? "kept, as --keep-outliers asks" :
                                  std::string("left out (--keep-outliers keeps ") + (one ? "it)" : "them)");
  std::cerr << "gpubench: warning: " << outliers.size() << (one ? " run is" : " runs are")
            << " worse than the other runs' median by more than 1.5 x the tolerance and 3 robust standard "
               "deviations (1.4826 x MAD) of those runs, on figures that decide acceptance; "
            << what << ":\n";
  std::string named;
  for (const OutlierRun& run : outliers) {
    std::cerr << "  " << describe(run) << "\n";
    named += (named.empty() ? "" : " ") + describe(run) + ".";
  }
  description += std::string(description.empty() ? "" : " ") + (keep ? "Kept, though outliers (--keep-outliers): " :
                                                                      "Left out as outliers: ") + named;
  if (keep) return runs;
  std::vector<SourcedResults> kept;
  for (std::size_t r = 0, next = 0; r < runs.size(); ++r) {
    if (next < outliers.size() && outliers[next].index == r) {
      ++next;
    } else {
      kept.push_back(std::move(runs[r]));
    }
  }
  return kept;
}

// Runs of one node cannot show how healthy nodes of its kind differ: what the host's side adds (both-ways pinned PCIe
// H2D differed by 4-5 % between H100 nodes of one kind) gates at that node's own spread, and another healthy node can
// fail against the file. Said on stderr; such a file is right as the node's own baseline.
void warn_if_one_node(const Baseline& baseline) {
  std::set<std::vector<std::string>> nodes;
  for (const BaselineRun& run : baseline.runs) {
    if (run.gpus.empty()) return;  // made before the UUIDs were kept: which node is unknown
    std::vector<std::string> gpus = run.gpus;
    std::sort(gpus.begin(), gpus.end());
    nodes.insert(gpus);
  }
  if (baseline.runs.size() < 2 || nodes.size() != 1) return;
  std::cerr << "gpubench: warning: all " << baseline.runs.size() << " runs are of one node (" << baseline.runs[0].gpus[0]
            << (baseline.runs[0].gpus.size() > 1 ? ", ..." : "")
            << "): what differs between healthy nodes of its kind (the host's side of pinned PCIe copies, 4-5 % between "
               "H100 nodes) gates at this node's spread, so another node can fail against it. For a node kind's "
               "baseline add runs of other nodes; as this node's own baseline it is right (docs/nightly.md)\n";
}

int create_command(const BaselineArguments& args, const std::atomic<bool>& stop) {
  refuse_outputs_over_inputs({{"--output", args.output}}, args.results);
  std::string description = args.description;
  const std::vector<SourcedResults> runs =
      screen_outliers(results_named(args.results, "baseline create", stop), args.keep_outliers, description);
  const Baseline baseline = build_baseline(runs, description, utc_now("%Y-%m-%dT%H:%M:%SZ"), kVersion);
  write_json_atomically(to_json(baseline), args.output);
  std::cout << "baseline for " << describe(baseline.kind) << ": " << baseline.metrics.size() << " metrics from "
            << runs.size() << " runs -> " << args.output << "\n\n";
  print_baseline_summary(baseline, std::cout);
  warn_if_one_node(baseline);
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
      "Give 10 or more runs, each its own `gpubench run`. A metric gates (can fail a check) at its tolerance, or at "
      "its noise band where that is wider: the run-to-run spread times Student's t for the 3-sigma tail (about 22 x "
      "spread for 3 runs, 7.3 x for 5 and 4.3 x for 10). A metric whose band is too wide to catch a halved link "
      "(35 % of a throughput, 71 % of a time) stays informational, with the reason in check's output; check "
      "decides this when it reads the file, which does not hold it. From 3 runs on, a run worse than the median of the others on a figure deciding acceptance, by more "
      "than 1.5 x its tolerance and 3 x 1.4826 x MAD of the others (one measured under a competing load), is named "
      "and left out unless --keep-outliers is given; the file's description says which.");
  create->add_option("results", args->results,
                     "results files of healthy runs, or folders of them (read as history reads one); 10 or more runs "
                     "recommended")
      ->required()
      ->check(CLI::ExistingPath);
  create->add_option("-o,--output", args->output, "baseline file to write")->required();
  create->add_option("--description", args->description, "how the runs were made (kept in the file)");
  create->add_flag("--keep-outliers", args->keep_outliers,
                   "keep the runs named as outliers (worse than the others on a figure deciding acceptance), which "
                   "are otherwise left out");
  create->callback([args, &state] { state.exit_code = create_command(*args, *state.stop); });
}

}  // namespace gpubench
