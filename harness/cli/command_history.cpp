// gpubench history: change points in each metric's series over time, with what changed around them.
#include <iostream>
#include <memory>
#include <sstream>

#include "harness/cli/cli_support.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/cli/finite_number.hpp"
#include "harness/cli/results_folder.hpp"
#include "harness/report/text_table.hpp"
#include "harness/verdict/history.hpp"

namespace gpubench {
namespace {

struct HistoryArguments {
  std::string directory;
  bool json = false;
  double significance = 0.01;
};

int history_command(const HistoryArguments& args, const std::atomic<bool>& stop) {
  ChangePointOptions options;
  options.significance = args.significance;
  // The directory may also hold baselines or check reports; only results documents make a history. Its subfolders
  // are searched too: `--results-dir` keeps each host's runs in a folder of its own.
  std::vector<SourcedResults> runs = results_in_folder(args.directory, "history", stop);
  const HistoryReport report = analyse_history(std::move(runs), options);
  bool any_worse = false;
  nlohmann::json changes = nlohmann::json::array();
  TextTable table;
  for (const char* h : {"date", "node", "metric", "before", "after", "change", "confidence", "what else changed"}) table.add_column(h);
  for (const HistoryChange& c : report.changes) {
    any_worse = any_worse || c.worse;
    std::string environment;
    for (const std::string& e : c.environment_changes) environment += (environment.empty() ? "" : "; ") + e;
    if (!c.contention.empty()) environment = c.contention + (environment.empty() ? "" : "; " + environment);
    table.add_row({c.date, c.node, c.metric, format_number(c.before, 2), format_number(c.after, 2),
                   (c.relative_change >= 0 ? "+" : "") + format_number(100 * c.relative_change, 1) + "%" + (c.worse ? " worse" : ""),
                   format_number(100 * c.confidence, 1) + "%", environment.empty() ? "nothing recorded" : environment});
    nlohmann::json change{{"date", c.date}, {"host", c.host}, {"node", c.node}, {"metric", c.metric}, {"unit", c.unit},
                          {"before", c.before}, {"after", c.after}, {"relative_change", c.relative_change},
                          {"tolerance", c.tolerance}, {"confidence", c.confidence}, {"worse", c.worse},
                          {"last_run_before", c.last_before}, {"first_run_after", c.first_after},
                          {"environment_changes", c.environment_changes}};
    if (!c.contention.empty()) change["contention"] = c.contention;
    changes.push_back(change);
  }
  const bool too_few = report.longest_series < report.runs_needed;
  std::ostringstream significance;
  significance << args.significance;
  const std::string too_few_text =
      "too few runs to find a change: the longest series has " + std::to_string(report.longest_series) + " run" +
      (report.longest_series == 1 ? "" : "s") + " of one node, and a change point needs " +
      std::to_string(report.runs_needed) + " (3 on each side, and enough for the permutation test to reach p <= " +
      significance.str() + ")";
  if (args.json) {
    nlohmann::json out{{"runs", report.runs}, {"nodes", report.nodes}, {"series", report.series},
                       {"runs_needed", report.runs_needed}, {"longest_series", report.longest_series},
                       {"within_tolerance", report.within_tolerance}, {"change_points", changes}};
    if (too_few) out["too_few_runs"] = too_few_text;
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << report.runs << (report.runs == 1 ? " run" : " runs") << " of " << report.nodes
              << (report.nodes == 1 ? " node" : " nodes") << " (a node: its host and its GPUs' UUIDs), "
              << report.series << " series (node x metric), " << report.changes.size()
              << (report.changes.size() == 1 ? " change point" : " change points") << " past the figure's tolerance "
              << "(E-divisive means, permutation test with " << permutations_for(args.significance)
              << " permutations at p <= " << args.significance << ")\n";
    if (report.within_tolerance > 0) {
      std::cout << report.within_tolerance << " more within the figure's tolerance, not reported (no practical effect)\n";
    }
    if (too_few) std::cout << too_few_text << "\n";
    std::cout << "\n";
    if (!table.empty()) table.print(std::cout);
  }
  return any_worse ? kExitFailed : kExitOk;
}

}  // namespace

void add_history_command(CLI::App& app, CommandState& state) {
  auto args = std::make_shared<HistoryArguments>();
  CLI::App* history = app.add_subcommand("history", "find when each metric changed, and what else changed then");
  history->add_option("directory", args->directory, "directory of results files, searched with its subfolders")->required()->check(CLI::ExistingDirectory);
  history->add_option("--significance", args->significance, "largest permutation p-value to accept")->check(kFiniteNumber)->check(CLI::Range(0.001, 0.5));
  history->add_flag("--json", args->json, "print JSON");
  history->callback([args, &state] { state.exit_code = history_command(*args, *state.stop); });
}

}  // namespace gpubench
