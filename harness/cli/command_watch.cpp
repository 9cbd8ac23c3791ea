// gpubench watch: runs a job (or watches the GPUs for a while), samples its GPUs and its processes, and diagnoses each
// GPU it used against this node's measured ceilings (docs/watch.md). The options and the wiring; the work is in
// harness/watch/.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>

#include "benchmarks/common/device_selection.hpp"
#include "benchmarks/common/nvml_library.hpp"
#include "gpubench/version.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/cli/baseline_location.hpp"
#include "harness/cli/cli_support.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/device_list_option.hpp"
#include "harness/cli/duration_text.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/cli/non_empty_text.hpp"
#include "harness/cli/output_paths.hpp"
#include "harness/environment/fingerprint.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/output_error.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/run_record.hpp"
#include "harness/watch/diagnosis_rules.hpp"
#include "harness/watch/watch_console.hpp"
#include "harness/watch/watch_document.hpp"
#include "harness/watch/watch_prometheus.hpp"
#include "harness/watch/watch_session.hpp"
#include "harness/watch/watched_child.hpp"

namespace gpubench {
namespace {

// The shortest --interval: NVML averages utilisation over a sample period "between 1 second and 1/6 second,
// depending on the product" (nvml.h, nvmlUtilization_t), and GPM needs "greater than 100ms" between two
// nvmlGpmSampleGet calls. The larger of the two that every product allows is 1/6 s; below it utilisation would
// repeat from one sample to the next on every GPU.
constexpr double kShortestInterval = 1.0 / 6.0;

struct WatchArguments {
  std::string duration;
  std::string interval = "1s";
  std::string devices;
  std::string ceilings;
  std::string output;
  std::string json;
  std::string prometheus;
  std::string replay;
  bool json_given = false;  // --json, with or without a FILE (without: --replay prints the diagnosis as JSON)
  bool no_colour = false;
  std::vector<std::string> command;
};

// "1s", "0.5s", "500ms", "2" (seconds). Throws UsageError naming --interval.
double parse_interval(const std::string& text) {
  const auto refuse = [&](const std::string& why) {
    return UsageError("--interval " + text + ": " + why);
  };
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    throw refuse("not a time (use e.g. 1s, 0.5s or 500ms)");
  }
  const std::string unit = text.substr(used);
  if (unit == "ms") {
    value /= 1000;
  } else if (unit == "m") {
    value *= 60;
  } else if (!unit.empty() && unit != "s") {
    throw refuse("not a time (use e.g. 1s, 0.5s or 500ms)");
  }
  if (!std::isfinite(value) || value <= 0) throw refuse("must be above 0");
  if (value < kShortestInterval - 1e-9) {
    throw refuse("shorter than 1/6 s, the shortest period over which NVML averages GPU utilisation (GPM also needs "
                 "more than 100 ms between samples); use 0.17s or more");
  }
  if (value > 3600) throw refuse("longer than an hour");
  return value;
}

bool no_color_requested() {
  const char* value = std::getenv("NO_COLOR");
  return value != nullptr && *value != '\0';
}

std::string signal_name(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "signal " + std::to_string(signal);
  }
}

// The ceilings from --ceilings FILE (a results document or a baseline), or found as `check` finds a baseline: this
// node's kind in the baseline folder. None found is no error: the rules that need one say so.
WatchCeilings load_ceilings(const std::string& given, const NvmlLibrary* nvml, const std::string& nvml_error) {
  WatchCeilings out;
  if (!given.empty()) {
    try {
      const nlohmann::json document = read_json_file(given);
      const std::string schema = document_schema(document, given);
      out.source = given;
      if (schema == kBaselineSchema) {
        const Baseline baseline = baseline_from_json(document, given);
        out.kind = "baseline";
        out.note = "the expected figures of " + describe(baseline.kind) + ", given with --ceilings";
        out.gpus = node_ceilings(baseline);
      } else if (schema == kResultsSchema) {
        const ResultsDocument results = results_from_json(document, given);
        out.kind = "results";
        out.note = "the figures of run " + results.run.id + ", given with --ceilings";
        out.gpus = node_ceilings(results);
      } else {
        throw UsageError("--ceilings " + given + ": not a gpubench results document nor a baseline (schema '" +
                         schema + "'); give the results of `gpubench run` on this node or its baseline");
      }
    } catch (const InputError& error) {
      throw UsageError(std::string("--ceilings: ") + error.what());
    }
    if (out.gpus.empty()) {
      std::cerr << "gpubench: watch: --ceilings " << given << " holds none of the figures watch uses (memory/read, "
                << "gemm 8192^3, pcie 1GiB, p2p ce_unidir 1GiB): the rules that need them will say so\n";
    }
    return out;
  }
  std::string where;
  try {
    ResultsDocument here;
    here.environment = collect_environment(nvml, nvml_error, {});
    if (!here.environment.contains("gpus") || !here.environment["gpus"].is_array() || here.environment["gpus"].empty()) {
      out.note = "no GPU seen, so this node's kind, and its baseline, are not known";
      return out;
    }
    const MachineKind kind = machine_kind_of(here, "this node");
    where = default_baseline_location();
    BaselineChoice choice = choose_baseline(kind, where);
    if (choice.path.empty()) {
      out.note = "no baseline of " + describe(kind) + " in " + where + "; give one with --ceilings";
      return out;
    }
    out.source = choice.path;
    out.kind = "baseline";
    out.note = "the expected figures of this node's kind, " + describe(kind);
    out.gpus = node_ceilings(choice.baseline);
  } catch (const InputError& error) {
    out.note = std::string("no baseline found: ") + error.what();
  }
  return out;
}

// The GPUs to watch: every one CUDA sees, or --devices', each with its NVML device. Says in `*unavailable` why there
// are none.
std::vector<WatchGpuTarget> watch_targets(const NvmlLibrary* nvml, const std::string& nvml_error,
                                          const std::string& devices, std::string* unavailable) {
  if (nvml == nullptr) {
    *unavailable = nvml_error.empty() ? "NVML unavailable" : nvml_error;
    if (!devices.empty()) std::cerr << "gpubench: watch: --devices " << devices << " cannot be watched: " << *unavailable << "\n";
    return {};
  }
  const CudaStatus cuda = probe_cuda();
  if (!cuda.error.empty()) {
    *unavailable = "CUDA sees no GPU: " + cuda.error;
    return {};
  }
  std::vector<WatchGpuTarget> targets;
  for (int index : selected_devices(devices, cuda.device_count)) {
    const nvmlDevice_t device = nvml->device_for_cuda_index(index);
    if (device == nullptr) {
      std::cerr << "gpubench: watch: GPU " << index << " is not sampled: NVML has no device at its PCI bus id\n";
      continue;
    }
    targets.push_back({index, device});
  }
  if (targets.empty()) *unavailable = "NVML matched none of the GPUs CUDA sees";
  return targets;
}

// Which GPUs the diagnosis covers: those the job was seen on; with none told, every watched one. Sets
// d.diagnosed_gpus and its basis from `timeline` (the session's, not copied).
void choose_diagnosed(WatchDocument& d, const WatchTimeline& timeline, const WatchSession& session) {
  d.diagnosed_gpus.clear();
  for (const GpuTimeline& gpu : timeline.gpus) {
    if (session.gpus_with_job().count(gpu.index) > 0) d.diagnosed_gpus.push_back(gpu.index);
  }
  if (!d.diagnosed_gpus.empty()) {
    d.diagnosed_gpus_basis = d.mode == "command" ? "NVML listed a process of the job's tree on them"
                                                 : "NVML listed a compute process on them";
    return;
  }
  if (timeline.gpus.empty()) {
    d.diagnosed_gpus_basis = "no GPU was sampled";
    return;
  }
  for (const GpuTimeline& gpu : timeline.gpus) d.diagnosed_gpus.push_back(gpu.index);
  d.diagnosed_gpus_basis = d.mode == "command" ? "NVML never listed a process of the job's tree: every watched GPU"
                                               : "NVML listed no compute process: every watched GPU";
}

std::vector<GpuDiagnosis> diagnose_chosen(const WatchTimeline& timeline, const std::vector<int>& chosen,
                                          const std::map<int, GpuCeilings>& ceilings) {
  const GpuCeilings none;
  std::vector<GpuDiagnosis> out;
  for (const GpuTimeline& gpu : timeline.gpus) {
    if (std::find(chosen.begin(), chosen.end(), gpu.index) == chosen.end()) continue;
    const auto it = ceilings.find(gpu.index);
    out.push_back(diagnose_gpu(timeline, gpu, it == ceilings.end() ? none : it->second));
  }
  return out;
}

// What the live Prometheus file needs of the timeline: each GPU's facts and last sample, the last host sample.
WatchTimeline last_samples(const WatchTimeline& timeline) {
  WatchTimeline last;
  last.command = timeline.command;
  last.interval_s = timeline.interval_s;
  last.cpus_allowed = timeline.cpus_allowed;
  for (const GpuTimeline& gpu : timeline.gpus) {
    GpuTimeline facts = gpu;
    facts.samples.clear();
    if (!gpu.samples.empty()) facts.samples.push_back(gpu.samples.back());
    last.gpus.push_back(std::move(facts));
  }
  if (!timeline.host.empty()) last.host.push_back(timeline.host.back());
  return last;
}

// gpubench watch --replay DOC: the recorded timeline diagnosed again with this gpubench's rules, against the
// document's own ceilings or --ceilings FILE; what watch prints at the end of a job, or with --json (no FILE) the
// diagnosis array alone, on standard output.
int replay_command(const WatchArguments& args, const CommandState& state) {
  if (!args.command.empty() || !args.duration.empty() || !args.output.empty() || !args.prometheus.empty() ||
      !args.devices.empty() || args.interval != "1s") {
    throw UsageError("--replay diagnoses a recorded watch document again: it takes --ceilings, --json and --no-color, "
                     "not a job, --duration, -o, --prometheus, --devices or --interval");
  }
  WatchDocument d = read_watch_file(args.replay);
  if (!args.ceilings.empty()) d.ceilings = load_ceilings(args.ceilings, nullptr, "");
  if (d.diagnosed_gpus.empty()) {
    for (const GpuTimeline& gpu : d.timeline.gpus) d.diagnosed_gpus.push_back(gpu.index);
  }
  d.diagnosis = diagnose_chosen(d.timeline, d.diagnosed_gpus, d.ceilings.gpus);
  if (state.stop->load()) throw Interrupted();
  if (args.json_given && args.json.empty()) {
    std::cout << diagnosis_json(d).at("diagnosis").dump(2) << "\n";
    return kExitOk;
  }
  std::vector<std::string> written;
  if (!args.json.empty()) {
    check_output_file("--json", args.json);
    write_json_atomically(diagnosis_json(d), args.json);
    written.push_back("diagnosis: " + args.json);
  }
  std::cout << "replayed " << args.replay << " (recorded " << (d.started_at.empty() ? "at an unknown time" : d.started_at)
            << (d.hostname.empty() ? "" : " on " + d.hostname)
            << (d.gpubench_version.empty() ? "" : " by gpubench " + d.gpubench_version)
            << ") with the rules of gpubench " << kVersion << "\n";
  print_watch_console(d, written, std::cout, !args.no_colour && !no_color_requested() && isatty(STDOUT_FILENO));
  return kExitOk;
}

int watch_command(const WatchArguments& args, const CommandState& state) {
  if (!args.replay.empty()) return replay_command(args, state);
  if (args.json_given && args.json.empty()) {
    throw UsageError("--json needs a FILE when watching a job (the job's standard output is its own); without one it "
                     "goes with --replay");
  }
  const double interval = parse_interval(args.interval);
  std::optional<double> duration;
  if (!args.duration.empty()) {
    try {
      duration = static_cast<double>(parse_duration(args.duration).count());
    } catch (const std::invalid_argument& error) {
      throw UsageError(std::string("--duration: ") + error.what());
    }
  }
  if (duration && !args.command.empty()) {
    throw UsageError("--duration watches whatever runs on the GPUs; give either it or a COMMAND after --, not both");
  }
  if (!duration && args.command.empty()) {
    throw UsageError("nothing to watch: give the job after -- (gpubench watch -- python train.py), or --duration 60s "
                     "to watch whatever runs on the GPUs");
  }
  const std::string output = args.output.empty() ? "watch-" + utc_now("%Y%m%dT%H%M%SZ") + ".json" : args.output;
  refuse_outputs_over_inputs({{"-o", output}, {"--json", args.json}, {"--prometheus", args.prometheus}},
                             args.ceilings.empty() ? std::vector<std::string>{} : std::vector<std::string>{args.ceilings});
  check_output_file(args.output.empty() ? "the watch document (-o)" : "-o", output);
  if (!args.json.empty()) check_output_file("--json", args.json);
  if (!args.prometheus.empty()) check_output_file("--prometheus", args.prometheus);

  std::string nvml_error;
  const std::unique_ptr<NvmlLibrary> nvml = NvmlLibrary::load(&nvml_error);
  WatchDocument d;
  d.mode = duration ? "duration" : "command";
  const std::vector<WatchGpuTarget> targets = watch_targets(nvml.get(), nvml_error, args.devices, &d.gpu_unavailable);
  if (duration && targets.empty()) {
    std::cerr << "gpubench: watch: nothing to watch for " << args.duration << ": " << d.gpu_unavailable
              << " (--duration watches the processes on the GPUs, which needs NVML)\n";
    return kExitUsage;
  }
  d.ceilings = load_ceilings(args.ceilings, nvml.get(), nvml_error);

  install_watch_signal_handlers();
  WatchSession session(targets.empty() ? nullptr : nvml.get(), d.gpu_unavailable, targets, interval, args.command);
  d.gpu_unavailable = session.gpu_unavailable();
  d.gpubench_version = std::string(kVersion) + " (" + kGitRevision + ")";
  d.hostname = host_name();
  d.gpu_identities = session.identities();
  // Asked to stop before the job started (main's handler until now, watch's from here on): it does not start.
  if (watch_stop_signal() != 0 || state.stop->load()) throw Interrupted();

  std::optional<WatchedChild> child;
  if (!duration) {
    std::string why;
    child = WatchedChild::start(args.command, &why);
    if (!child) throw UsageError("cannot start the job " + why + "; nothing was run");
  }
  d.started_at = utc_now("%Y-%m-%dT%H:%M:%SZ");

  // The live Prometheus file, and the findings so far in it: the diagnosis is taken again as samples grow, less
  // often on a long job (about 600 times in all), so that its cost per sample stays flat; nothing of the timeline is
  // copied but the last samples.
  std::size_t diagnosed_at = 0;
  bool prometheus_failed = false;
  WatchDocument live = d;
  const auto write_live = [&] {
    if (args.prometheus.empty()) return;
    const WatchTimeline& timeline = session.timeline();
    live.timeline = last_samples(timeline);
    live.duration_s = session.elapsed_s();
    const std::size_t samples = timeline.gpus.empty() ? timeline.host.size() : timeline.gpus[0].samples.size();
    if (samples >= diagnosed_at + std::max<std::size_t>(1, samples / 600)) {
      diagnosed_at = samples;
      choose_diagnosed(live, timeline, session);
      live.diagnosis = diagnose_chosen(timeline, live.diagnosed_gpus, live.ceilings.gpus);
    }
    try {
      write_text_atomically(args.prometheus, [&](std::ostream& out) { write_watch_prometheus(live, true, out); });
    } catch (const OutputError& error) {
      if (!prometheus_failed) std::cerr << "gpubench: watch: " << error.what() << " (tried again after each sample)\n";
      prometheus_failed = true;
    }
  };
  // Whatever goes wrong in the sampling, the job is not left behind: watch waits for it, then writes what it saw.
  try {
    session.run(child ? &*child : nullptr, duration, write_live);
  } catch (const std::exception& error) {
    std::cerr << "gpubench: watch: sampling stopped: " << error.what() << "\n";
    while (child && !child->wait_for_end(1)) {
    }
  }

  d.finished_at = utc_now("%Y-%m-%dT%H:%M:%SZ");
  d.timeline = session.timeline();
  d.duration_s = session.elapsed_s();
  d.gpm_unavailable = session.gpm_unavailable();  // after the run: a GPM metric may first fail in the job's samples
  if (watch_stop_signal() != 0) d.stopped_by = signal_name(watch_stop_signal());
  if (child && child->end()) {
    WatchedJobEnd end;
    end.status = child->end()->status;
    end.exit_code = child->end()->exit_code;
    end.signal = child->end()->signal;
    if (end.signal) end.signal_name = strsignal(*end.signal);
    d.job = end;
  }
  choose_diagnosed(d, d.timeline, session);
  d.diagnosis = diagnose_chosen(d.timeline, d.diagnosed_gpus, d.ceilings.gpus);

  // Each output is written whatever became of the others, and the diagnosis is printed in any case.
  std::vector<std::string> written, unwritten;
  const auto write = [&](const std::string& what, const std::string& path, const std::function<void()>& writer) {
    try {
      writer();
      written.push_back(what + ": " + path);
    } catch (const OutputError& error) {
      unwritten.push_back(error.what());
    }
  };
  write("document", output, [&] { write_json_atomically(to_json(d), output); });
  if (!args.json.empty()) write("diagnosis", args.json, [&] { write_json_atomically(diagnosis_json(d), args.json); });
  if (!args.prometheus.empty()) {
    write("prometheus", args.prometheus, [&] {
      write_text_atomically(args.prometheus, [&](std::ostream& out) { write_watch_prometheus(d, false, out); });
    });
  }
  std::cerr << "\n";
  print_watch_console(d, written, std::cerr, !args.no_colour && !no_color_requested() && isatty(STDERR_FILENO));
  for (const std::string& why : unwritten) std::cerr << "gpubench: watch: not written: " << why << "\n";
  if (d.job) return d.job->status;
  return kExitOk;
}

}  // namespace

void add_watch_command(CLI::App& app, CommandState& state) {
  auto args = std::make_shared<WatchArguments>();
  CLI::App* watch = app.add_subcommand(
      "watch", "run a job (after --) and diagnose each GPU it used against this node's measured ceilings; exits with "
               "the job's status");
  watch->add_option("--duration", args->duration,
                    "instead of a job, watch whatever runs on the GPUs for this long (e.g. 60s, 10m)")
      ->check(kNonEmptyText);
  watch->add_option("--interval", args->interval, "time between samples (default 1s; at least 0.17s)")
      ->check(kNonEmptyText);
  watch->add_option("--devices", args->devices,
                    "GPUs to watch, e.g. 0,1 or 0-3 (default: all; the diagnosis covers those the job used)")
      ->check(kDeviceListSyntax);
  watch->add_option("--ceilings", args->ceilings,
                    "a results document or baseline of this node to hold the job's rates against (default: this "
                    "node kind's baseline, found as check finds it)")
      ->check(kNonEmptyText);
  watch->add_option("-o,--output", args->output, "the watch document (default: watch-UTCTIME.json)")->check(kNonEmptyText);
  CLI::Option* json = watch->add_option("--json", args->json,
                                        "also write the diagnosis alone as JSON to this file; with --replay and no "
                                        "FILE, print the diagnosis array on standard output")
                          ->expected(0, 1);
  watch->add_option("--replay", args->replay,
                    "diagnose a recorded watch document (DOC) again with this gpubench's rules, against its own "
                    "ceilings or --ceilings FILE; prints what watch prints at a job's end")
      ->check(kNonEmptyText);
  watch->add_option("--prometheus", args->prometheus,
                    "a node_exporter textfile rewritten after every sample (dcgm-exporter's names where the quantity "
                    "is the same)")
      ->check(kNonEmptyText);
  watch->add_flag("--no-color", args->no_colour, "no colour even on a terminal (as does a non-empty NO_COLOR)");
  watch->add_option("command", args->command, "the job, after --: COMMAND [ARGS...]");
  watch->callback([args, json, &state] {
    args->json_given = json->count() > 0;
    state.exit_code = watch_command(*args, state);
  });
}

}  // namespace gpubench
