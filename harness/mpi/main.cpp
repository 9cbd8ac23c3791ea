// gpubench-mpi: gpubench-micro's NCCL busbw sweep of every collective (nccl/collective_sweep.hpp, sweep_points) with
// one process per GPU, the way jobs across nodes run:
//   mpirun -np 2 [-x NCCL_ALGO=Ring -x NCCL_PROTO=Simple] gpubench-mpi [--suite quick|full] [-o results.json]
// One algorithm/protocol combination per run, from NCCL_ALGO / NCCL_PROTO as in gpubench-micro ("auto" when
// unset). Each rank drives the GPU of its local rank (one GPU per rank when a launcher hides the others). Rank 0
// writes one gpubench.results/1 document, made as `gpubench run` makes its own (mpi_results.hpp): gpubench-micro's
// metric ids, params, clocks and throttle, every rank's node and GPU in environment.ranks[], the fingerprint of
// its own node, and each rank's GPU telemetry (NVML, every 250 ms). Arguments are read with CLI11, as gpubench's.
#include <CLI/CLI.hpp>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "benchmarks/common/exception_kind.hpp"
#include "benchmarks/common/nvml_library.hpp"
#include "benchmarks/common/registry.hpp"
#include "benchmarks/nccl/collective_sweep.hpp"
#include "benchmarks/nccl/nccl_combination.hpp"
#include "benchmarks/nccl/nccl_debug_log.hpp"
#include "benchmarks/nccl_mpi/mpi_collective_runner.hpp"
#include "benchmarks/nccl_mpi/mpi_world.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/mpi/nccl_catalogue.hpp"
#include "harness/mpi/mpi_results.hpp"
#include "harness/mpi/rank_clocks.hpp"
#include "harness/mpi/rank_identity.hpp"
#include "harness/mpi/rank_telemetry.hpp"
#include "harness/report/run_summary.hpp"
#include "harness/results/gbench_import.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/run_record.hpp"
#include "harness/runner/telemetry_sampler.hpp"

namespace gpubench {
namespace {

struct Options {
  std::string suite = "quick";
  std::string output;
};

// Reads the arguments with CLI11, as gpubench does. Returns the exit code to end with after --help or a bad
// argument (rank 0 prints the help or says what was wrong; the other ranks keep quiet), or nothing to go on.
std::optional<int> parse_options(int argc, char** argv, bool root, Options& options) {
  CLI::App app{"gpubench-mpi: gpubench-micro's NCCL busbw sweep of every collective with one process per GPU, for jobs "
               "across nodes.\n"
               "Start it with mpirun: mpirun -np N [-x NCCL_ALGO=Ring -x NCCL_PROTO=Simple] gpubench-mpi [OPTIONS]",
               "gpubench-mpi"};
  app.add_option("--suite", options.suite,
                 "quick: all-reduce 8 B to 4 GiB in steps of x8 (plus 1 GiB and 4 GiB), the other collectives at 4 KiB and "
                 "1 GiB; full: every collective 8 B to 4 GiB in steps of x2")
      ->check(CLI::IsMember({"quick", "full"}))
      ->capture_default_str();
  app.add_option("-o,--output", options.output, "results document written by rank 0 (default: gpubench-mpi-HOST-TIME.json)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    std::ostringstream quiet;
    const int code = root ? app.exit(error) : app.exit(error, quiet, quiet);
    return code == 0 ? kExitOk : kExitUsage;
  }
  return std::nullopt;
}

// The GPU of this rank: its local rank's, or the only one a launcher left visible. Sets *problem when none.
int choose_device(const MpiWorld& world, std::string* problem) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    *problem = status != cudaSuccess ? std::string("no usable GPU: ") + cudaGetErrorString(status)
                                     : std::string("no usable GPU: CUDA sees no device");
    return -1;
  }
  if (count == 1) return 0;
  if (world.local_rank() < count) return world.local_rank();
  *problem = "local rank " + std::to_string(world.local_rank()) + " on " + host_name() + ", which has " +
             std::to_string(count) + " GPUs: run at most " + std::to_string(count) + " ranks per node";
  return -1;
}

// Rank 0's progress line for one benchmark.
void report_progress(const std::string& name, const MpiCollectiveOutcome& outcome) {
  using Kind = MpiCollectiveOutcome::Kind;
  if (outcome.kind == Kind::Skipped) {
    std::cerr << name << ": skipped: " << outcome.reason << "\n";
  } else if (outcome.kind == Kind::Failed) {
    std::cerr << name << ": FAILED: " << outcome.reason << "\n";
  } else {
    std::vector<double> sorted = outcome.busbw_samples;
    std::sort(sorted.begin(), sorted.end());
    const std::string used = outcome.median.used ? outcome.median.used->algo + "/" + outcome.median.used->proto : "unknown";
    char line[160];
    std::snprintf(line, sizeof line, ": %.2f GB/s busbw (median of %zu), %.2f us; NCCL used %s", sorted[sorted.size() / 2],
                  sorted.size(), outcome.median.mean_seconds * 1e6, used.c_str());
    std::cerr << name << line << "\n";
  }
}

int run_ranks(const MpiWorld& world, const Options& options, const std::vector<std::string>& command_line,
              NcclDebugLog& debug_log) {
  const bool root = world.rank() == 0;
  std::string problem;
  const int device = choose_device(world, &problem);
  if (device >= 0) {
    const cudaError_t status = cudaSetDevice(device);
    if (status != cudaSuccess) problem = std::string("cudaSetDevice: ") + cudaGetErrorString(status);
  }
  const std::vector<std::string> problems = world.gather_text(problem.empty() ? "" : "rank " + std::to_string(world.rank()) + ": " + problem, 0);
  if (world.max(problem.empty() ? 0 : 1) != 0) {
    for (const std::string& text : problems) {
      if (!text.empty()) std::cerr << "gpubench-mpi: " << text << "\n";
    }
    return kExitNoGpu;
  }

  const std::vector<std::string> identities = world.gather_text(describe_rank(world.rank(), world.local_rank(), device).dump(), 0);
  const NcclCombination forced = forced_combination_from_environment();
  const FamilySpec& catalogue_row = nccl_family(forced);
  std::string nvml_error;
  const std::unique_ptr<NvmlLibrary> nvml = NvmlLibrary::load(&nvml_error);
  ResultsDocument document;
  std::string output = options.output;
  nlohmann::json ranks = nlohmann::json::array();
  if (root) {
    std::vector<int> node_devices;  // the GPUs the ranks on rank 0's node use
    for (const std::string& text : identities) {
      nlohmann::json identity = nlohmann::json::parse(text);
      if (identity.at("host") == host_name()) node_devices.push_back(identity.at("cuda_device").get<int>());
      ranks.push_back(std::move(identity));
    }
    std::sort(node_devices.begin(), node_devices.end());
    node_devices.erase(std::unique(node_devices.begin(), node_devices.end()), node_devices.end());
    document = start_mpi_results_document(command_line, options.suite, node_devices, ranks, world.size(), nvml.get(), nvml_error);
    if (output.empty()) output = "gpubench-mpi-" + document.run.host + "-" + utc_now("%Y%m%dT%H%M%SZ") + ".json";
    std::cerr << "gpubench-mpi: suite " << options.suite << ", " << world.size() << " ranks, NCCL_ALGO=" << forced.algo
              << " NCCL_PROTO=" << forced.proto << "; results in " << output << "\n";
  }

  // This rank's GPU, sampled while the sweep runs (no samples without NVML, as in `gpubench run`).
  std::vector<TelemetrySampler::Target> telemetry_targets;
  if (nvml) {
    if (const nvmlDevice_t handle = nvml->device_for_cuda_index(device)) telemetry_targets.push_back({device, handle});
  }
  TelemetrySampler sampler(nvml.get(), telemetry_targets, std::chrono::milliseconds(250));
  sampler.start();

  const Suite suite = options.suite == "quick" ? Suite::Quick : Suite::Full;
  const int repetitions = suite == Suite::Quick ? catalogue_row.quick_repetitions : catalogue_row.full_repetitions;
  MpiCollectiveRunner runner(world, device, debug_log, forced, repetitions, collective_min_time_seconds(suite));
  const auto started = std::chrono::steady_clock::now();
  FamilyRun family{variant_label(catalogue_row, forced), "ok", 0, 0, nlohmann::json::object()};
  const auto checkpoint = [&](bool finished) {
    family.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    document.families = {family};
    if (finished) finish_results_document(document);
    write_json_atomically(to_json(document), output);
  };
  // Each benchmark's outcome goes through the import of gpubench-micro's output, as in `gpubench run`.
  const auto record = [&](const std::string& name, const MpiCollectiveOutcome& outcome, const RankClocks& clocks) {
    ImportedBenchmarks imported =
        import_google_benchmark_json(collective_benchmark_json(name, outcome, clocks), catalogue_row.name, "gpubench-mpi " + name);
    for (Metric& m : imported.metrics) document.metrics.push_back(std::move(m));
    for (Skip& skip : imported.skipped) document.skipped.push_back(std::move(skip));
    for (Failure& failure : imported.failures) document.failures.push_back(std::move(failure));
    if (!imported.failures.empty()) {
      family.status = "failed";
      family.exit_code = kExitFailed;
    }
  };

  for (const SweepPoint& point : sweep_points(suite, forced)) {
    const std::string name = benchmark_name(point, forced);
    MpiCollectiveOutcome outcome;
    try {
      outcome = runner.run(point);
    } catch (const std::exception& error) {
      // The other ranks may wait for this one forever: record what is known and end the job.
      std::cerr << "gpubench-mpi: rank " << world.rank() << ": " << name << ": " << error.what() << "\n";
      if (root) {
        record(name, {MpiCollectiveOutcome::Kind::Failed, error.what(), failure_kind_of(error), {}, {}}, RankClocks{});
        checkpoint(true);
      }
      world.abort(kExitFailed);
    }
    // Every rank reads its GPU's clocks as the benchmark ends; rank 0 keeps the lowest and every reason.
    const std::vector<std::string> clocks = world.gather_text(read_rank_clocks(nvml.get(), device), 0);
    if (!root) continue;
    report_progress(name, outcome);
    record(name, outcome, combine_rank_clocks(clocks));
    checkpoint(false);
  }
  const std::vector<std::string> telemetry = world.gather_text(sampler.stop().dump(), 0);
  if (!root) return kExitOk;
  family.telemetry = merge_rank_telemetry(ranks, telemetry, host_name());
  checkpoint(true);
  print_run_summary(document, std::cout);
  std::cout << "results: " << output << "\n";
  // One rank is a one-GPU allocation, not a mistake: as `gpubench run` on one GPU, every collective is a skip
  // with its reason, and nothing failed.
  if (world.size() < 2) std::cout << "gpubench-mpi: 1 rank: every collective needs two or more, so none was measured\n";
  return document.failures.empty() ? kExitOk : kExitFailed;
}

int run(int argc, char** argv, NcclDebugLog& debug_log) {
  MpiWorld world(&argc, &argv);
  const bool root = world.rank() == 0;
  const std::vector<std::string> command_line(argv, argv + argc);
  Options options;
  if (const std::optional<int> exit_code = parse_options(argc, argv, root, options)) return *exit_code;
  try {
    return run_ranks(world, options, command_line, debug_log);
  } catch (const std::exception& error) {
    // The other ranks may be waiting for this one in a collective: end the job rather than hang it.
    std::cerr << "gpubench-mpi: rank " << world.rank() << ": " << error.what() << "\n";
    world.abort(kExitFailed);
  }
}

}  // namespace
}  // namespace gpubench

int main(int argc, char** argv) {
  // Before MPI starts its threads (setenv is not thread-safe) and before any NCCL call (NCCL reads it once).
  gpubench::NcclDebugLog debug_log = gpubench::NcclDebugLog::configure_environment();
  try {
    return gpubench::run(argc, argv, debug_log);
  } catch (const std::exception& error) {
    std::cerr << "gpubench-mpi: " << error.what() << "\n";
    return gpubench::kExitFailed;
  }
}
