// gpubench check: a run against its baseline (or another run), or many runs against each other (--fleet).
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>

#include "benchmarks/common/nvml_library.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/baseline/run_as_baseline.hpp"
#include "harness/cli/baseline_location.hpp"
#include "harness/cli/cli_support.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/cli/non_empty_text.hpp"
#include "harness/cli/output_paths.hpp"
#include "harness/environment/fingerprint.hpp"
#include "harness/report/check_console.hpp"
#include "harness/report/console_report.hpp"
#include "harness/report/json_report.hpp"
#include "harness/report/junit_report.hpp"
#include "harness/report/markdown_report.hpp"
#include "harness/report/prometheus_report.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/output_error.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/micro_listing.hpp"
#include "harness/runner/remeasure.hpp"
#include "harness/verdict/confirmation.hpp"
#include "harness/verdict/contention.hpp"
#include "harness/verdict/fleet.hpp"

namespace gpubench {
namespace {

// https://no-color.org: a NO_COLOR that is present and not empty asks for no colour, as --no-color does.
bool no_color_requested() {
  const char* value = std::getenv("NO_COLOR");
  return value != nullptr && *value != '\0';
}

// Where a new baseline for `where` (a baseline file or a folder of them) would go: the folder, or the file's own.
std::filesystem::path baseline_folder(const std::string& where) {
  const std::filesystem::path path(where);
  return std::filesystem::is_directory(path) ? path : path.parent_path();
}

// The columns the console may fill: the terminal's, or $COLUMNS where standard output is no terminal; none known (a
// file, a CI log) otherwise, and then every reason is printed whole.
std::optional<std::size_t> terminal_width() {
  winsize size{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  const char* columns = std::getenv("COLUMNS");
  if (columns == nullptr) return std::nullopt;
  char* end = nullptr;
  const long value = std::strtol(columns, &end, 10);
  if (end == columns || *end != '\0' || value <= 0) return std::nullopt;
  return static_cast<std::size_t>(value);
}

struct CheckArguments {
  std::vector<std::string> results;
  std::string baseline;
  std::string against;
  bool fleet = false;
  bool json = false;
  std::string json_file;
  bool no_colour = false;
  bool all = false;  // every figure in the terminal's table, not only those that need a person
  std::string junit;
  std::string markdown;
  std::string prometheus;
  int confirm = 0;  // fresh processes per suspect; 0: judge as measured
  std::string log_dir;
};

int fleet_command(const CheckArguments& args, const std::atomic<bool>& stop) {
  if (args.results.size() < 2) throw UsageError("--fleet needs the results of two or more nodes");
  refuse_outputs_over_inputs({{"--json-file", args.json_file}}, args.results);
  const std::vector<SourcedResults> runs = load_results_files(args.results, stop);
  // The node kind's baseline lends the fleet its rules: which figures gate, their tolerance and run-to-run spread.
  const MachineKind kind = machine_kind_of(runs.front().results, runs.front().path);
  const BaselineChoice choice = kind_baseline(kind, args.baseline, true, "check");
  if (choice.path.empty()) {
    std::cerr << "gpubench: check: no baseline of " << describe(kind) << " to say which figures gate and how much "
              << "they move between runs: the fleet's own spread judges\n";
  }
  const FleetReport report = analyse_fleet(runs, choice.path.empty() ? nullptr : &choice.baseline);
  if (!args.json_file.empty()) write_json_atomically(fleet_json(report), args.json_file);
  if (args.json) {
    std::cout << fleet_json(report).dump(2) << "\n";
  } else {
    print_fleet(report, std::cout);
  }
  return report.findings.empty() ? kExitOk : kExitFailed;
}

// Measures each suspect (a regression, or a noisy figure on the worse side) the document has not measured again yet,
// `times` times in fresh processes, and writes the document back with those measurements beside the first ones.
void confirm_suspects(const CheckReport& report, ResultsDocument& results, const std::string& path,
                      const CheckArguments& args, const std::atomic<bool>& stop) {
  const std::vector<std::string> suspects = unconfirmed_suspects(report, results);
  if (suspects.empty()) return;
  const CudaStatus cuda = probe_cuda();
  if (!cuda.error.empty()) throw NoGpuError("--confirm measures " + std::to_string(suspects.size()) + " suspect(s) again, which needs the GPUs: " + cuda.error);
  for (int device : results.run.devices) {
    if (device >= cuda.device_count) {
      throw NoGpuError(path + " ran on GPU " + std::to_string(device) + ", which this machine does not have (" +
                       std::to_string(cuda.device_count) + " visible); confirm on the node that ran it");
    }
  }
  std::string nvml_error;
  const std::unique_ptr<NvmlLibrary> nvml = NvmlLibrary::load(&nvml_error);
  RemeasureOptions options;
  options.times = args.confirm;
  options.micro_path = default_micro_path();
  options.log_dir = args.log_dir.empty() ? path + ".confirm.logs" : args.log_dir;
  std::cerr << "gpubench: check: measuring " << suspects.size() << " suspect(s) again, " << args.confirm
            << " time(s) each in fresh processes (logs in " << options.log_dir << ")\n";
  std::vector<std::string> notes;
  remeasure(results, suspects, options, nvml.get(), stop, notes);
  for (const std::string& note : notes) std::cerr << "gpubench: check: " << note << "\n";
  write_json_atomically(to_json(results), path);
}

int check_command(const CheckArguments& args, const std::atomic<bool>& stop) {
  if (args.fleet) {
    if (args.confirm > 0) throw UsageError("--confirm re-measures one run's suspects; it does not apply to --fleet");
    // Each of these judges one run against a reference; the fleet has none, so they are refused, not ignored.
    for (const auto& [option, value] : {std::pair{"--against", &args.against},
                                        std::pair{"--junit", &args.junit}, std::pair{"--markdown", &args.markdown},
                                        std::pair{"--prometheus", &args.prometheus}, std::pair{"--log-dir", &args.log_dir}}) {
      if (!value->empty()) throw UsageError(std::string(option) + " does not apply to --fleet (use --json or --json-file for a machine-readable report)");
    }
    return fleet_command(args, stop);
  }
  if (args.results.size() != 1) throw UsageError("check takes one results file (or several with --fleet)");
  const std::string& path = args.results[0];
  ResultsDocument results = read_results_file(path);
  // The node kind's baseline: what the run is judged against, or with --against, the rules the other run is used by.
  const MachineKind kind = machine_kind_of(results, path);
  const std::string where = args.baseline.empty() ? default_baseline_location() : args.baseline;
  BaselineChoice choice = kind_baseline(kind, args.baseline, !args.against.empty(), "check");
  if (!args.against.empty() && choice.path.empty()) {
    std::cerr << "gpubench: check: no baseline of " << describe(kind) << " in " << where << " to say which figures "
              << "gate and how much they move between runs: against " << args.against << ", the host's figures are "
              << "not judged and the others by the runs' own repetitions\n";
  }
  Baseline baseline;
  std::string baseline_path;
  std::vector<SourcedBaseline> same_model;
  if (!args.against.empty()) {
    const std::vector<SourcedResults> reference = load_results_files({args.against}, stop);
    baseline = run_as_baseline(reference.front(), choice.path.empty() ? nullptr : &choice.baseline, choice.path,
                               choice.same_model);
    baseline_path = args.against;
  } else {
    if (choice.path.empty()) {
      std::string considered;
      for (const std::string& c : choice.considered) considered += "\n  " + c;
      throw InputError(where, "", "no baseline for " + describe(kind) + (considered.empty() ? " (no baseline files there)" : "; considered:" + considered),
                       "make one with `gpubench baseline create RUN1.json ... RUN10.json -o " +
                           (baseline_folder(where) / baseline_file_name(kind)).string() +
                           "`, or check against another run with --against");
    }
    baseline = std::move(choice.baseline);
    baseline_path = choice.path;
    same_model = std::move(choice.same_model);
  }
  refuse_outputs_over_inputs({{"--json-file", args.json_file}, {"--junit", args.junit}, {"--markdown", args.markdown},
                              {"--prometheus", args.prometheus}},
                             {path, baseline_path});
  CheckReport report = check_against_baseline(results, path, baseline, baseline_path, same_model);
  if (!args.against.empty()) report.rules_path = choice.path;
  if (args.confirm > 0) confirm_suspects(report, results, path, args, stop);
  apply_confirmations(report, results);
  mark_contention(report, results);
  // Each output is written whatever became of the others, and the verdict is printed: an output that cannot be
  // written (a nightly job's reports/ folder not made yet) must not hide a regression. Its folder is made first.
  std::vector<std::string> unwritten;
  const auto write_output = [&](const std::string& output, const std::function<void(const std::string&)>& write) {
    if (output.empty()) return;
    try {
      const std::filesystem::path folder = std::filesystem::path(output).parent_path();
      std::error_code ignored;  // a folder that cannot be made shows as the write's own error, naming the path
      if (!folder.empty()) std::filesystem::create_directories(folder, ignored);
      write(output);
    } catch (const OutputError& error) {
      unwritten.push_back(error.what());
    }
  };
  write_output(args.json_file, [&](const std::string& to) { write_json_atomically(check_json(report), to); });
  write_output(args.junit, [&](const std::string& to) {
    write_text_atomically(to, [&](std::ostream& out) { write_junit(verdict_list(report, results.run), out); });
  });
  write_output(args.markdown, [&](const std::string& to) {
    write_text_atomically(to, [&](std::ostream& out) { write_check_markdown(report, out); });
  });
  write_output(args.prometheus, [&](const std::string& to) {
    write_text_atomically(to, [&](std::ostream& out) { write_check_prometheus(report, results, out); });
  });
  if (args.json) {
    std::cout << check_json(report).dump(2) << "\n";
  } else {
    print_check_console(report, std::cout, !args.no_colour && !no_color_requested() && isatty(STDOUT_FILENO),
                        args.all, terminal_width());
  }
  const int verdict = report.passed() ? kExitOk : kExitFailed;
  if (unwritten.empty()) return verdict;
  for (const std::string& why : unwritten) std::cerr << "gpubench: check: " << why << "\n";
  std::cerr << "gpubench: check: exit 2 for the output(s) not written; the verdict above is "
            << (verdict == kExitOk ? "PASS (exit 0" : "FAIL (exit 1") << " when every output is written)\n";
  return kExitUsage;
}

}  // namespace

void add_check_command(CLI::App& app, CommandState& state) {
  auto args = std::make_shared<CheckArguments>();
  CLI::App* check = app.add_subcommand("check", "judge a run against its baseline; exit 1 on a regression or failure");
  check->add_option("results", args->results, "results file (several with --fleet)")->required()->check(CLI::ExistingFile);
  check->add_option("--baseline", args->baseline,
                    "baseline file, or directory to choose from by GPU model, count and topology (a directory also "
                    "lends a GPU's own figures the same GPU model's baselines where the node kind's cannot judge them)")
      ->check(kNonEmptyText);
  check->add_option("--against", args->against,
                    "another results file to judge against, by the rules (which figures gate, their run-to-run noise) "
                    "of the node kind's baseline, found as without --against")
      ->check(CLI::ExistingFile);
  check->add_flag("--fleet", args->fleet, "compare runs from many nodes of one kind: flag slow nodes and slow GPUs");
  check->add_flag("--json", args->json, "print JSON instead of the table");
  check->add_option("--json-file", args->json_file, "also write the JSON to this file");
  check->add_flag("--no-color", args->no_colour, "no colour even on a terminal (as does a non-empty NO_COLOR)");
  check->add_flag("--all", args->all,
                  "list every figure with its whole reason (by default the table holds what needs a person: "
                  "failed, regression, noisy, missing, improved)");
  check->add_option("--junit", args->junit, "also write JUnit XML (one test case per metric)");
  check->add_option("--markdown", args->markdown, "also write a Markdown summary");
  check->add_option("--prometheus", args->prometheus, "also write a node_exporter textfile");
  check->add_option("--confirm", args->confirm,
                    "measure each suspect (a regression, or a noisy figure on the worse side) again N times in fresh "
                    "processes on this node (the GPUs the run used), keep those measurements in RESULTS, and call a "
                    "regression only if they show it too")
      ->check(CLI::Range(1, 20));
  check->add_option("--log-dir", args->log_dir, "with --confirm: where the re-measurements log (default: RESULTS.confirm.logs)");
  check->callback([args, &state] { state.exit_code = check_command(*args, *state.stop); });
}

}  // namespace gpubench
