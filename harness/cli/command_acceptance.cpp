// gpubench acceptance: one command for a new node — doctor, the quick suite against the matching baseline,
// a short stress run and, when asked, DCGM's diagnostic — with one verdict per GPU and one for the node; exit 1 when
// it should not go into service.
#include <unistd.h>

#include <chrono>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>

#include "benchmarks/catalogue.hpp"
#include "benchmarks/common/nvml_library.hpp"
#include "harness/acceptance/acceptance_level.hpp"
#include "harness/acceptance/acceptance_verdict.hpp"
#include "harness/acceptance/dcgm_run.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/cli/baseline_location.hpp"
#include "harness/cli/cli_support.hpp"
#include "harness/cli/duration_text.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/device_list_option.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/cli/filter_option.hpp"
#include "harness/cli/output_paths.hpp"
#include "harness/cli/results_destination.hpp"
#include "harness/doctor/gpu_identity.hpp"
#include "harness/doctor/health_rules.hpp"
#include "harness/doctor/node_profile.hpp"
#include "harness/doctor/read_node_facts.hpp"
#include "harness/environment/fingerprint.hpp"
#include "harness/report/console_report.hpp"
#include "harness/report/json_report.hpp"
#include "harness/report/junit_report.hpp"
#include "harness/report/progress_display.hpp"
#include "harness/report/stress_display.hpp"
#include "harness/results/id_pattern.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/output_error.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/micro_listing.hpp"
#include "harness/runner/run_benchmarks.hpp"
#include "harness/runner/run_record.hpp"
#include "harness/stress/stress_document.hpp"
#include "harness/stress/stress_run.hpp"
#include "harness/verdict/contention.hpp"

namespace gpubench {
namespace {

struct AcceptanceArguments {
  std::string filter = acceptance_filter(family_catalogue());
  std::string devices;
  std::string baseline;
  std::string level = "quick";
  std::string stress_duration;  // each empty: the level's
  std::string power_duration;
  std::string pulse_duration;
  bool interconnect = false;
  ResultsDestination destination;
  std::string log_dir;
  bool json = false;                 // --json: the verdicts as JSON on stdout, instead of the table
  std::string json_file;             // --json-file FILE
  std::string junit;
  std::string expect;
  int dcgm_level = 0;  // 0: DCGM's diagnostic is not run
  std::string deprecated_json_file;  // --json FILE: the old spelling of --json-file FILE
};

// `--json FILE` wrote a file before --json meant JSON on stdout, as it does in every other command; it still
// does, with a note.
void resolve_json_options(AcceptanceArguments& args, const CLI::Option& json_option) {
  if (args.deprecated_json_file.empty()) {
    args.json = json_option.count() > 0;
    return;
  }
  if (!args.json_file.empty()) throw UsageError("--json FILE is the old spelling of --json-file FILE: give one of them");
  std::cerr << "gpubench: acceptance: --json FILE is deprecated: use --json-file FILE (--json alone prints the JSON)\n";
  args.json_file = args.deprecated_json_file;
}

// The level, with what was given explicitly in place of its own: a duration, or 0 to leave that load out (the
// sustained load always runs).
AcceptanceLevel chosen_level(const AcceptanceArguments& args) {
  AcceptanceLevel level = *acceptance_level(args.level);
  const auto override_with = [](const std::string& text, const char* option, bool may_skip, std::chrono::seconds& run) {
    if (text.empty()) return;
    if (may_skip && text == "0") {
      run = std::chrono::seconds(0);
      return;
    }
    try {
      run = parse_duration(text);
    } catch (const std::invalid_argument& error) {
      throw UsageError(std::string(option) + " " + error.what());
    }
  };
  override_with(args.stress_duration, "--stress-duration", false, level.sustained);
  override_with(args.power_duration, "--power-duration", true, level.power);
  override_with(args.pulse_duration, "--pulse-duration", true, level.pulse);
  level.interconnect = level.interconnect || args.interconnect;
  return level;
}

// One stress load on every GPU tested; once stopped, no GPU is set up: each is recorded as never loaded, which the
// stress rules fail.
std::vector<GpuStressRecord> stress_stage(const StressOptions& options, const NvmlLibrary* nvml, const std::atomic<bool>& stop) {
  if (!stop.load()) return run_stress(options, nvml, stop, {});
  std::vector<GpuStressRecord> never_loaded;
  for (int index : options.devices) {
    never_loaded.emplace_back();
    never_loaded.back().index = index;
    never_loaded.back().mode = options.mode;
  }
  return never_loaded;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// DCGM's diagnostic on the GPUs tested, named by NVML's numbers as DCGM names them (all GPUs when one is unknown).
DcgmEvidence dcgm_stage(int level, const std::vector<GpuFacts>& gpus, const std::string& log_dir, const std::atomic<bool>& stop) {
  std::vector<unsigned> dcgm_gpus;
  for (const GpuFacts& gpu : gpus) {
    if (gpu.nvml_index.value) dcgm_gpus.push_back(*gpu.nvml_index.value);
  }
  if (dcgm_gpus.size() != gpus.size()) dcgm_gpus.clear();
  DcgmRun run = stop.load() ? DcgmRun{"", "stopped before it started", {}} : run_dcgm_diag(level, dcgm_gpus, log_dir, stop);
  const std::map<int, int> cuda_index = dcgm_to_cuda_indexes(run.report, gpus);
  return {run.skipped_because, run.no_result, std::move(run.report), cuda_index};
}

// The quick suite's deciding figures on the GPUs tested, checked against the baseline of the node's kind. The
// results reach `output` as each family ends, so a stop or a hang later loses none of them.
void performance_stage(const AcceptanceArguments& args, const IdPattern& selected, const RunOptions& options,
                       const NvmlLibrary* nvml, const CommandState& state, const std::string& output,
                       ResultsDocument& document, AcceptanceEvidence& evidence) {
  std::vector<TelemetrySampler::Target> targets;
  for (int index : options.devices) targets.push_back({index, nvml ? nvml->device_for_cuda_index(index) : nullptr});
  RunObserver observer = make_progress_display(std::cerr, isatty(STDERR_FILENO) != 0);
  observer.checkpoint = [&output](const ResultsDocument& so_far) { write_json_atomically(to_json(so_far), output); };
  run_benchmarks(options, targets, nvml, observer, *state.stop, document);

  const MachineKind kind = machine_kind_of(document, output);
  const std::string where = args.baseline.empty() ? default_baseline_location() : args.baseline;
  try {
    const BaselineChoice choice = choose_baseline(kind, where);
    for (const std::string& why : choice.skipped) std::cerr << "gpubench: acceptance: skipping " << why << "\n";
    if (choice.path.empty()) {
      evidence.baseline_note = "no baseline for " + describe(kind) + " in " + where;
      return;
    }
    // Only the figures acceptance measured are judged: the rest of the baseline is not "missing" here.
    Baseline measured_part = choice.baseline;
    for (auto it = measured_part.metrics.begin(); it != measured_part.metrics.end();) {
      it = selected.matches(it->first) ? std::next(it) : measured_part.metrics.erase(it);
    }
    evidence.check = check_against_baseline(document, output, measured_part, choice.path, choice.same_model);
    mark_contention(*evidence.check, document);
  } catch (const InputError& error) {
    evidence.baseline_note = error.what();
  }
}

// The stress loads of the level, one after another, each judged on its own; their verdicts together are the
// stress stage's. Each load's verdicts join the evidence as it ends, so a load that cannot run keeps the others'.
void stress_loads(const AcceptanceLevel& level, const std::vector<int>& devices, const NvmlLibrary* nvml,
                  const CommandState& state, const std::string& progress_prefix,
                  std::chrono::steady_clock::time_point started, ResultsDocument& document,
                  AcceptanceEvidence& evidence) {
  std::vector<std::pair<StressMode, std::chrono::seconds>> loads = {{StressMode::Sustained, level.sustained}};
  if (level.power.count() > 0) loads.push_back({StressMode::Power, level.power});
  if (level.pulse.count() > 0) loads.push_back({StressMode::Pulse, level.pulse});
  StressLimits limits;
  for (const auto& [mode, duration] : loads) {
    std::cerr << progress_prefix << "stress, " << stress_mode_name(mode) << " load, " << duration.count() << " s ("
              << static_cast<int>(seconds_since(started)) << " s)\n";
    StressOptions stress;
    stress.mode = mode;
    stress.duration = duration;
    stress.devices = devices;
    stress.interconnect = level.interconnect && mode == StressMode::Sustained;
    limits.power_target = stress.power_target;
    const std::vector<GpuStressRecord> records = stress_stage(stress, nvml, *state.stop);
    const std::vector<GpuStressVerdict> judged = judge_stress(records, limits);
    add_stress_to_document(records, judged, limits, static_cast<double>(duration.count()), document);
    evidence.stress.insert(evidence.stress.end(), judged.begin(), judged.end());
  }
}

int acceptance_command(const AcceptanceArguments& args, const CommandState& state) {
  const auto started = std::chrono::steady_clock::now();
  // When acceptance began and how long each stage took, for the JUnit report.
  AcceptanceTiming timing;
  timing.started_at = utc_now("%Y-%m-%dT%H:%M:%SZ");
  auto stage_began = started;
  const auto end_stage = [&](const char* stage) {
    timing.stage_seconds[stage] = seconds_since(stage_began);
    stage_began = std::chrono::steady_clock::now();
  };
  const AcceptanceLevel level = chosen_level(args);
  std::optional<IdPattern> selected;
  try {
    selected.emplace(args.filter);
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--filter ") + error.what());
  }
  std::vector<std::string> inputs;
  for (const std::string& input : {args.baseline, args.expect}) {
    if (!input.empty()) inputs.push_back(input);
  }
  refuse_outputs_over_inputs({{"--output", args.destination.output}, {"--json-file", args.json_file}, {"--junit", args.junit}},
                             inputs);
  // An output that cannot be written is found before anything runs, as `run` finds it (exit 2, naming the path).
  check_results_destination(args.destination);
  if (!args.log_dir.empty()) check_output_folder("--log-dir", args.log_dir);
  std::optional<NodeProfile> expected;
  if (!args.expect.empty()) expected = load_node_profile(args.expect);
  std::string nvml_error;
  const std::unique_ptr<NvmlLibrary> nvml = NvmlLibrary::load(&nvml_error);
  // Without a usable GPU, doctor still runs and says why (cuda.no_gpu), and the reports say that nothing else could.
  const CudaStatus cuda = probe_cuda();
  const std::vector<int> devices =
      cuda.error.empty() ? selected_devices(args.devices, cuda.device_count) : std::vector<int>{};

  const std::string stages = args.dcgm_level > 0 ? "4" : "3";
  const std::vector<std::string> runs = level_runs(level);
  std::cerr << "gpubench acceptance, level " << level.name << ":";
  for (std::size_t r = 0; r < runs.size(); ++r) std::cerr << (r == 0 ? " " : "; ") << runs[r];
  std::cerr << "\n[1/" << stages << "] doctor\n";
  const NodeFacts facts = read_node_facts(nvml.get(), nvml_error, cuda, devices);
  AcceptanceEvidence evidence;
  evidence.gpus = gpu_identities(facts);
  evidence.doctor = judge_node_health(facts, {}, expected);
  evidence.level = level.name;
  evidence.level_runs = runs;
  if (args.dcgm_level > 0) evidence.dcgm.emplace();
  end_stage("doctor");

  // A stage that cannot go on (no GPU, gpubench-micro missing, a CUDA error) stops acceptance there; the reports are
  // written all the same, naming the stage and the reason, and the error then leaves with its own exit code.
  std::exception_ptr stopped_by;
  std::optional<ResultsDocument> document;
  std::string output;
  bool results_written = false;
  const char* stage = "doctor";
  if (!cuda.error.empty()) {
    evidence.stopped = StageStop{stage, "no usable GPU: " + cuda.error};
    stopped_by = std::make_exception_ptr(NoGpuError(cuda.error));
  }
  try {
    if (!stopped_by) {
      stage = "performance";
      const auto load_began = std::chrono::steady_clock::now();
      std::cerr << "[2/" << stages << "] quick suite (" << static_cast<int>(seconds_since(started)) << " s)\n";
      document = start_results_document(state.command_line, "quick", devices, nvml.get(), nvml_error);
      output = results_path(args.destination, *document);
      RunOptions options;
      options.suite = "quick";
      options.filter = args.filter;
      options.devices = devices;
      options.micro_path = default_micro_path();
      options.log_dir = args.log_dir.empty() ? output + ".logs" : args.log_dir;
      performance_stage(args, *selected, options, nvml.get(), state, output, *document, evidence);
      end_stage("performance");

      stage = "stress";
      stress_loads(level, devices, nvml.get(), state, "[3/" + stages + "] ", started, *document, evidence);
      // The suite and stress loaded every link: PCIe and NVLink errors that came meanwhile count against the GPU.
      NodeFacts after_load = facts;
      reread_link_errors(nvml.get(), after_load);
      const double loaded_s = seconds_since(load_began);
      for (const std::vector<Finding>& growth :
           {judge_pcie_error_growth(facts, after_load), judge_nvlink_error_growth(facts, after_load, loaded_s)}) {
        evidence.doctor.insert(evidence.doctor.end(), growth.begin(), growth.end());
      }
      document->run.interrupted = state.stop->load();
      end_stage("stress");
      finish_results_document(*document);
      write_json_atomically(to_json(*document), output);
      results_written = true;

      if (args.dcgm_level > 0) {
        stage = "dcgm";
        std::cerr << "[4/4] DCGM diagnostic, level " << args.dcgm_level << " ("
                  << static_cast<int>(seconds_since(started)) << " s)\n";
        evidence.dcgm = dcgm_stage(args.dcgm_level, facts.gpus, options.log_dir, *state.stop);
        end_stage("dcgm");
      }
    }
  } catch (const std::exception& error) {
    evidence.stopped = StageStop{stage, error.what()};
    stopped_by = std::current_exception();
    end_stage(stage);
  }
  if (document && !output.empty() && !results_written) {  // what finished before the stop is kept too
    try {
      finish_results_document(*document);
      write_json_atomically(to_json(*document), output);
      results_written = true;
    } catch (const OutputError& error) {
      std::cerr << "gpubench: acceptance: " << error.what() << "\n";
    }
  }
  const AcceptanceReport report = judge_acceptance(evidence);
  const nlohmann::json report_json = acceptance_json(report);
  if (!args.json_file.empty()) write_json_atomically(report_json, args.json_file);
  timing.seconds = seconds_since(started);
  if (!args.junit.empty()) {
    const std::string host = document ? document->run.host : host_name();
    write_text_atomically(args.junit, [&](std::ostream& out) { write_junit(verdict_list(report, host, timing), out); });
  }
  // With --json, standard output holds the JSON alone: where the results went and how long it took go to stderr.
  if (args.json) {
    std::cout << report_json.dump(2) << "\n";
  } else {
    print_acceptance(report, std::cout);
  }
  std::ostream& notes = args.json ? std::cerr : std::cout;
  if (results_written) notes << "results: " << output << "\n";
  notes << "took " << static_cast<int>(seconds_since(started)) << " s\n";
  if (stopped_by) std::rethrow_exception(stopped_by);
  if ((document && document->run.interrupted) || state.stop->load()) return kExitFailed;
  return report.node_verdict == Grade::Fail ? kExitFailed : kExitOk;
}

}  // namespace

void add_acceptance_command(CLI::App& app, CommandState& state) {
  auto args = std::make_shared<AcceptanceArguments>();
  CLI::App* acceptance = app.add_subcommand("acceptance", "accept a new node: doctor, quick suite against its baseline, stress (--level)");
  acceptance->add_option("--devices", args->devices, "GPUs to test (default: all)")->check(kDeviceListSyntax);
  acceptance->add_option("--filter", args->filter, "which quick-suite benchmarks to run (regular expression; default: the acceptance set)")
      ->check(kFilterPattern);
  acceptance->add_option("--baseline", args->baseline, "baseline file or directory (default: the shipped baselines)");
  acceptance->add_option("--level", args->level,
                         "quick: sustained stress 30 s (about 1 min on two H200s); standard: sustained 2 min, power "
                         "target 1 min, pulse 1 min (about 5 min); long: sustained 8 min with checked P2P and PCIe "
                         "copies, power target 3 min, pulse 3 min (about 15 min). Doctor and the figures run at every level")
      ->check(CLI::IsMember(acceptance_level_names()))
      ->capture_default_str();
  acceptance->add_option("--stress-duration", args->stress_duration, "length of the sustained stress load (default: the level's)");
  acceptance->add_option("--power-duration", args->power_duration, "length of the power-target load, 0 to leave it out (default: the level's)");
  acceptance->add_option("--pulse-duration", args->pulse_duration, "length of the pulse load, 0 to leave it out (default: the level's)");
  acceptance->add_flag("--interconnect", args->interconnect, "checked P2P and PCIe copies beside the sustained load (the long level's)");
  add_results_destination_options(*acceptance, args->destination, "-acceptance");
  acceptance->add_option("--log-dir", args->log_dir, "where each family's raw output goes (default: OUTPUT.logs)");
  CLI::Option* json = acceptance->add_option("--json", args->deprecated_json_file,
                                             "print the verdicts as JSON instead of the table (--json FILE, which "
                                             "wrote the file, is deprecated: --json-file FILE)")
                          ->expected(0, 1)
                          ->type_name("");
  acceptance->add_option("--json-file", args->json_file, "also write the verdicts as JSON to this file");
  acceptance->add_option("--junit", args->junit, "also write the verdicts as JUnit XML to this file");
  acceptance->add_option("--expect", args->expect, "node profile the doctor stage holds the node against (docs/node-profile.md)");
  acceptance->add_option("--dcgm", args->dcgm_level, "also run NVIDIA DCGM's diagnostic, `dcgmi diag -r LEVEL` (1-4), where installed")
      ->check(CLI::Range(1, 4));
  acceptance->callback([args, json, &state] {
    resolve_json_options(*args, *json);
    state.exit_code = acceptance_command(*args, state);
  });
}

}  // namespace gpubench
