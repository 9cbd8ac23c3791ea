#include "harness/runner/run_benchmarks.hpp"

#include <signal.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <set>

#include "benchmarks/common/device_selection.hpp"
#include "harness/results/failure_advice.hpp"
#include "harness/results/gbench_import.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/child_process.hpp"
#include "harness/runner/family_timeout.hpp"
#include "harness/runner/micro_listing.hpp"

namespace gpubench {
namespace {

std::string last_lines(const std::string& path, std::size_t max_chars) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.size() > max_chars) text = "..." + text.substr(text.size() - max_chars);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

std::string family_label(const FamilySpec& family, const FamilyVariant& variant) {
  return variant.name.empty() ? family.name : family.name + "." + variant.name;
}

// Records a family variant's failure and returns a copy of it: the failures of its unfinished benchmarks, appended
// after it, may move document.failures' elements, and a reference to one would then read freed memory.
Failure record_family_failure(ResultsDocument& document, const std::string& label, const std::string& family,
                              FailureKind kind, const std::string& reason) {
  document.failures.push_back({label, family, kind, reason, advice_for_failure(kind)});
  return document.failures.back();
}

// A family variant that failed part-way leaves the benchmarks it had not reached without any result. Each gets a
// failure of its own naming the variant and what happened to it (`what_happened`: "timed out after 600 s"), so
// that a check against a baseline reports their metrics as failed, not as missing (family-level failures carry the
// variant's label, which no metric id contains).
void record_unfinished_benchmarks(ResultsDocument& document, const std::vector<std::string>& planned,
                                  const Failure& cause, const std::string& what_happened) {
  std::set<std::string> finished;
  for (const Metric& m : document.metrics) finished.insert(m.benchmark);
  for (const Failure& f : document.failures) finished.insert(f.benchmark);
  for (const Skip& s : document.skipped) finished.insert(s.benchmark);
  const std::string reason = "not measured: " + cause.benchmark + " " + what_happened + " before reaching it";
  for (const std::string& name : planned) {
    if (finished.count(name) == 0) document.failures.push_back({name, cause.family, cause.kind, reason, cause.advice});
  }
}

}  // namespace

std::string nvls_enable_for(const std::string& family, bool allow_nvls) {
  return allow_nvls && family == "nccl" ? "1" : "0";
}

void run_benchmarks(const RunOptions& options, const std::vector<TelemetrySampler::Target>& telemetry_targets,
                    const NvmlLibrary* nvml, const RunObserver& observer, const std::atomic<bool>& stop,
                    ResultsDocument& document) {
  std::error_code ignored;  // a folder that cannot be made shows as each family's unwritable log, with its path
  std::filesystem::create_directories(options.log_dir, ignored);
  std::map<std::string, std::string> child_env = {
      {"GPUBENCH_SUITE", options.suite},
      {"GPUBENCH_DEVICES", format_device_list(options.devices)},
  };
  if (!options.gemm_shapes.empty()) child_env["GPUBENCH_GEMM_SHAPES"] = format_gemm_shape_list(options.gemm_shapes);
  child_env["NCCL_NVLS_ENABLE"] = nvls_enable_for("", false);
  document.environment["variables"]["NCCL_NVLS_ENABLE"] = nvls_enable_for("nccl", options.allow_nvls);

  struct Planned {
    FamilySpec spec;
    FamilyVariant variant;
    std::vector<std::string> benchmarks;
    std::string filter;  // the child's --benchmark_filter
  };
  std::vector<Planned> plan;
  // Each variant is listed with its own environment: a variant may name its benchmarks after it (NCCL_ALGO ...).
  const auto listing_environment = [&](const FamilyVariant& variant) {
    std::map<std::string, std::string> env = child_env;
    for (const auto& [name, value] : variant.environment) env[name] = value;
    return env;
  };
  // One listing per environment (only the NCCL variants change it), all at once: each is a start of
  // gpubench-micro, driver and NVML included, and one after another they added seconds to a quick run.
  std::map<std::map<std::string, std::string>, std::future<std::vector<std::string>>> pending;
  for (const FamilySpec& family : families_in_suite(options.suite)) {
    for (const FamilyVariant& variant : family.variants) {
      const std::map<std::string, std::string> env = listing_environment(variant);
      if (pending.count(env) == 0) {
        pending.emplace(env, std::async(std::launch::async, list_micro_benchmarks, options.micro_path, env));
      }
    }
  }
  std::map<std::map<std::string, std::string>, std::vector<std::string>> listings;
  for (auto& [env, listing] : pending) listings.emplace(env, listing.get());  // rethrows a listing's error
  for (const FamilySpec& family : families_in_suite(options.suite)) {
    for (const FamilyVariant& variant : family.variants) {
      const auto listing = listings.find(listing_environment(variant));
      std::vector<std::string> selected = select_benchmarks(listing->second, family.name, options.filter);
      if (!selected.empty()) {
        std::string filter = child_filter(listing->second, family.name, selected);
        plan.push_back({family, variant, std::move(selected), std::move(filter)});
      } else if (options.filter.empty()) {
        // Unfiltered, every family of the suite has benchmarks; none means its name and gpubench-micro's
        // benchmark names disagree, which must not pass as a family that simply was not run.
        const std::string label = family_label(family, variant);
        record_family_failure(document, label, family.name, FailureKind::CatalogueMismatch,
                              "gpubench-micro lists no benchmark named " + family.name + "/...: its benchmarks and "
                              "the family catalogue (benchmarks/catalogue.cpp) disagree");
        document.families.push_back({label, "failed", 0, 0, nlohmann::json::object()});
      }
    }
  }

  for (std::size_t k = 0; k < plan.size(); ++k) {
    const FamilySpec& family = plan[k].spec;
    const FamilyVariant& variant = plan[k].variant;
    const std::string label = family_label(family, variant);
    if (stop) break;
    if (observer.family_started) observer.family_started(k + 1, plan.size(), label, plan[k].benchmarks.size());
    const int repetitions = options.repetitions > 0 ? options.repetitions
                            : options.suite == "quick" ? family.quick_repetitions
                                                       : family.full_repetitions;
    const std::string base = options.log_dir + "/" + label;
    ChildCommand command;
    command.argv = {options.micro_path,
                    "--benchmark_filter=" + plan[k].filter,
                    "--benchmark_repetitions=" + std::to_string(repetitions),
                    "--benchmark_out=" + base + ".json",
                    "--benchmark_out_format=json",
                    "--benchmark_format=console"};
    command.environment = child_env;
    for (const auto& [name, value] : variant.environment) command.environment[name] = value;
    command.environment["NCCL_NVLS_ENABLE"] = nvls_enable_for(family.name, options.allow_nvls);
    command.stdout_path = base + ".stdout.log";
    command.stderr_path = base + ".stderr.log";
    command.timeout = options.timeout.count() > 0 ? options.timeout
                                                   : family_timeout(family, plan[k].benchmarks, options.devices.size());
    std::remove((base + ".json").c_str());

    TelemetrySampler sampler(nvml, telemetry_targets, std::chrono::milliseconds(250));
    sampler.start();
    const ChildOutcome outcome = run_child(command, &stop, observer.family_tick);
    FamilyRun run{label, "ok", outcome.seconds, outcome.exit_code, sampler.stop()};

    // Whatever finished is kept, also from a family that timed out or crashed part-way.
    Failure cause;              // the variant's failure, when it failed
    std::string what_happened;  // to it, in a few words, for the benchmarks it never reached
    std::string unreadable;     // why its output could not be read, if it could not
    try {
      std::ifstream probe(base + ".json");
      if (probe.good()) {
        ImportedBenchmarks imported = import_google_benchmark_json(read_google_benchmark_file(base + ".json"), family.name, base + ".json");
        for (Metric& m : imported.metrics) document.metrics.push_back(std::move(m));
        for (Failure& f : imported.failures) document.failures.push_back(std::move(f));
        for (Skip& s : imported.skipped) document.skipped.push_back(std::move(s));
      }
    } catch (const InputError& error) {
      unreadable = error.what();
    }
    // A child stopped, timed out or killed part-way leaves its output cut off: that is its end's doing, recorded
    // below, not a failure of its own (a kill -9 of the gemm child left both).
    const bool ended_by_itself = outcome.launch_error.empty() && !outcome.stopped && !outcome.timed_out &&
                                 outcome.signal == 0;
    if (!unreadable.empty() && ended_by_itself) {
      cause = record_family_failure(document, label, family.name, FailureKind::UnreadableOutput,
                                    "unreadable benchmark output: " + unreadable);
      what_happened = "wrote output that cannot be read";
      run.status = "failed";
    }
    if (!outcome.launch_error.empty()) {
      run.status = "failed";
      cause = record_family_failure(document, label, family.name, FailureKind::ChildFailed, outcome.launch_error);
      what_happened = "could not start";
    } else if (outcome.stopped) {
      run.status = "interrupted";
      document.run.interrupted = true;
    } else if (outcome.timed_out) {
      run.status = "timeout";
      cause = record_family_failure(document, label, family.name, FailureKind::ChildTimeout,
                                    "timed out after " + std::to_string(command.timeout.count()) +
                                        " s; benchmarks finished before it are kept (log: " + base + ".stderr.log)");
      what_happened = "timed out after " + std::to_string(command.timeout.count()) + " s";
    } else if (outcome.signal != 0) {
      run.status = "crashed";
      cause = record_family_failure(document, label, family.name, FailureKind::ChildCrashed,
                                    std::string("gpubench-micro ended by signal ") + strsignal(outcome.signal) + ": " +
                                        last_lines(base + ".stderr.log", 400) + " (log: " + base + ".stderr.log)");
      what_happened = std::string("was ended by signal ") + strsignal(outcome.signal);
    } else if (outcome.exit_code != 0) {
      run.status = "failed";
      cause = record_family_failure(document, label, family.name, FailureKind::ChildFailed,
                                    "gpubench-micro exited with " + std::to_string(outcome.exit_code) + ": " +
                                        last_lines(base + ".stderr.log", 400));
      what_happened = "exited with " + std::to_string(outcome.exit_code);
    }
    if (run.status != "ok" && run.status != "interrupted") {
      record_unfinished_benchmarks(document, plan[k].benchmarks, cause, what_happened);
    }
    document.families.push_back(run);
    if (observer.family_finished) observer.family_finished(run);
    if (observer.checkpoint) observer.checkpoint(document);
  }
  if (stop) document.run.interrupted = true;
}

}  // namespace gpubench
