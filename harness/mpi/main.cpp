// gpubench-mpi: gpubench-micro's NCCL all-reduce sweep with one process per GPU, the way jobs across nodes run:
//   mpirun -np 2 [-x NCCL_ALGO=Ring -x NCCL_PROTO=Simple] gpubench-mpi [--suite quick|full] [-o results.json]
// One algorithm/protocol combination per run, from NCCL_ALGO / NCCL_PROTO as in gpubench-micro ("auto" when
// unset). Each rank drives the GPU of its local rank (one GPU per rank when a launcher hides the others). Rank 0
// writes one gpubench.results/1 document with gpubench-micro's metric ids, every rank's node and GPU in
// environment.ranks[], the fingerprint of its own node, and each rank's GPU telemetry (NVML, every 250 ms).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "benchmarks/common/exception_kind.hpp"
#include "benchmarks/common/nvml_library.hpp"
#include "benchmarks/common/registry.hpp"
#include "benchmarks/nccl/allreduce_sweep.hpp"
#include "benchmarks/nccl/nccl_combination.hpp"
#include "benchmarks/nccl/nccl_debug_log.hpp"
#include "benchmarks/nccl_mpi/mpi_allreduce_runner.hpp"
#include "benchmarks/nccl_mpi/mpi_world.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/mpi/mpi_results.hpp"
#include "harness/mpi/rank_identity.hpp"
#include "harness/mpi/rank_telemetry.hpp"
#include "harness/report/run_summary.hpp"
#include "harness/results/failure_advice.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/run_record.hpp"
#include "harness/runner/suites.hpp"
#include "harness/runner/telemetry_sampler.hpp"

namespace gpubench {
namespace {

constexpr const char* kUsage =
    "usage: mpirun -np N [-x NCCL_ALGO=Ring -x NCCL_PROTO=Simple] gpubench-mpi [--suite quick|full] [-o FILE]\n"
    "  --suite quick|full  8 B to 4 GiB in steps of x8 (plus 1 GiB and 4 GiB) or x2; default quick\n"
    "  -o, --output FILE   results document written by rank 0; default gpubench-mpi-HOST-TIME.json\n";

struct Options {
  std::string suite = "quick";
  std::string output;
  bool help = false;
};

// Throws std::invalid_argument naming the bad argument.
Options parse_options(const std::vector<std::string>& args) {
  Options options;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto value = [&](const std::string& name) -> std::string {
      if (i + 1 == args.size()) throw std::invalid_argument(name + " needs a value");
      return args[++i];
    };
    if (arg == "-h" || arg == "--help") {
      options.help = true;
    } else if (arg == "--suite") {
      options.suite = value(arg);
    } else if (arg.rfind("--suite=", 0) == 0) {
      options.suite = arg.substr(8);
    } else if (arg == "-o" || arg == "--output") {
      options.output = value(arg);
    } else if (arg.rfind("--output=", 0) == 0) {
      options.output = arg.substr(9);
    } else {
      throw std::invalid_argument("unknown argument '" + arg + "'");
    }
  }
  if (options.suite != "quick" && options.suite != "full") {
    throw std::invalid_argument("--suite '" + options.suite + "' must be quick or full");
  }
  return options;
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

int repetitions_for(const std::string& suite) {
  for (const FamilySpec& family : families_in_suite(suite)) {
    if (family.name == "nccl") return suite == "quick" ? family.quick_repetitions : family.full_repetitions;
  }
  return suite == "quick" ? 3 : 5;
}

std::string variant_label(const NcclCombination& forced) {
  return forced.algo == "auto" && forced.proto == "auto" ? "nccl.auto" : "nccl." + forced.algo + "_" + forced.proto;
}

// Rank 0's progress line for one benchmark.
void report_progress(const std::string& name, const MpiAllReduceOutcome& outcome) {
  using Kind = MpiAllReduceOutcome::Kind;
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
    document.run = mpi_run_info(command_line, options.suite, node_devices);
    document.environment = mpi_environment(node_devices, ranks, world.size());
    if (output.empty()) output = "gpubench-mpi-" + document.run.host + "-" + utc_now("%Y%m%dT%H%M%SZ") + ".json";
    std::cerr << "gpubench-mpi: suite " << options.suite << ", " << world.size() << " ranks, NCCL_ALGO=" << forced.algo
              << " NCCL_PROTO=" << forced.proto << "; results in " << output << "\n";
  }

  // This rank's GPU, sampled while the sweep runs (no samples without NVML, as in `gpubench run`).
  std::string nvml_error;
  const std::unique_ptr<NvmlLibrary> nvml = NvmlLibrary::load(&nvml_error);
  std::vector<TelemetrySampler::Target> telemetry_targets;
  if (nvml) {
    if (const nvmlDevice_t handle = nvml->device_for_cuda_index(device)) telemetry_targets.push_back({device, handle});
  }
  TelemetrySampler sampler(nvml.get(), telemetry_targets, std::chrono::milliseconds(250));
  sampler.start();

  const Suite suite = options.suite == "quick" ? Suite::Quick : Suite::Full;
  MpiAllReduceRunner runner(world, device, debug_log, forced, repetitions_for(options.suite), min_time_seconds(suite));
  const auto started = std::chrono::steady_clock::now();
  FamilyRun family{variant_label(forced), "ok", 0, 0, nlohmann::json::object()};
  const auto checkpoint = [&](bool finished) {
    family.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    document.families = {family};
    if (finished) document.run.finished_at = utc_now("%Y-%m-%dT%H:%M:%SZ");
    write_json_atomically(to_json(document), output);
  };

  for (std::size_t bytes : allreduce_sizes(suite)) {
    for (Placement placement : allreduce_placements(suite, forced)) {
      const std::string name = allreduce_benchmark_name(forced, bytes, placement);
      MpiAllReduceOutcome outcome;
      try {
        outcome = runner.run(bytes, placement);
      } catch (const std::exception& error) {
        // The other ranks may wait for this one forever: record what is known and end the job.
        std::cerr << "gpubench-mpi: rank " << world.rank() << ": " << name << ": " << error.what() << "\n";
        if (root) {
          const FailureKind kind = failure_kind_of(error);
          document.failures.push_back({name, "nccl", kind, error.what(), advice_for_failure(kind)});
          family.status = "failed";
          family.exit_code = kExitFailed;
          checkpoint(true);
        }
        world.abort(kExitFailed);
      }
      if (!root) continue;
      report_progress(name, outcome);
      if (outcome.kind == MpiAllReduceOutcome::Kind::Skipped) {
        document.skipped.push_back({name, "nccl", outcome.reason});
      } else if (outcome.kind == MpiAllReduceOutcome::Kind::Failed) {
        document.failures.push_back({name, "nccl", outcome.failure, outcome.reason, advice_for_failure(outcome.failure)});
        family.status = "failed";
        family.exit_code = kExitFailed;
      } else {
        document.metrics.push_back(allreduce_metric(name, outcome.busbw_samples, outcome.median));
      }
      checkpoint(false);
    }
  }
  const std::vector<std::string> telemetry = world.gather_text(sampler.stop().dump(), 0);
  if (!root) return kExitOk;
  family.telemetry = merge_rank_telemetry(ranks, telemetry, host_name());
  checkpoint(true);
  print_run_summary(document, std::cout);
  std::cout << "results: " << output << "\n";
  if (world.size() < 2) {
    std::cerr << "gpubench-mpi: needs at least two ranks (mpirun -np 2 ...)\n";
    return kExitUsage;
  }
  return document.failures.empty() ? kExitOk : kExitFailed;
}

int run(int argc, char** argv, NcclDebugLog& debug_log) {
  MpiWorld world(&argc, &argv);
  const bool root = world.rank() == 0;
  const std::vector<std::string> command_line(argv, argv + argc);
  Options options;
  try {
    options = parse_options(command_line);
  } catch (const std::invalid_argument& error) {
    if (root) std::cerr << "gpubench-mpi: " << error.what() << "\n" << kUsage;
    return kExitUsage;
  }
  if (options.help) {
    if (root) std::cout << kUsage;
    return kExitOk;
  }
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
