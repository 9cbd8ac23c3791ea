#include "harness/mpi/mpi_results.hpp"

#include <mpi.h>
#include <unistd.h>

#include <ctime>
#include <memory>

#include "benchmarks/common/nvml_library.hpp"
#include "gpubench/version.hpp"
#include "harness/environment/fingerprint.hpp"
#include "harness/mpi/rank_identity.hpp"
#include "harness/results/statistics.hpp"
#include "harness/runner/run_record.hpp"

namespace gpubench {

RunInfo mpi_run_info(const std::vector<std::string>& command_line, const std::string& suite, const std::vector<int>& devices) {
  RunInfo run;
  run.host = host_name();
  run.id = utc_now("%Y%m%dT%H%M%SZ") + "-" + run.host + "-" + std::to_string(getpid());
  run.started_at = utc_now("%Y-%m-%dT%H:%M:%SZ");
  run.gpubench_version = kVersion;
  run.git_revision = kGitRevision;
  run.command_line = command_line;
  run.suite = suite;
  run.devices = devices;
  return run;
}

nlohmann::json mpi_environment(const std::vector<int>& devices, const nlohmann::json& ranks, int world_size) {
  std::string nvml_error;
  const std::unique_ptr<NvmlLibrary> nvml = NvmlLibrary::load(&nvml_error);
  nlohmann::json environment = collect_environment(nvml.get(), nvml_error, devices);
  environment["ranks"] = ranks;
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  std::string library_text;
  if (MPI_Get_library_version(library, &length) == MPI_SUCCESS) {
    library_text.assign(library, static_cast<std::size_t>(length));
    library_text = library_text.substr(0, library_text.find_first_of("\n,"));  // the name and version only
  }
  environment["mpi"] = {{"world_size", world_size}, {"library", library_text}};
  return environment;
}

Metric allreduce_metric(const std::string& benchmark, const std::vector<double>& busbw_samples,
                        const AllReduceMeasurement& median) {
  Metric metric;
  metric.id = benchmark + "/busbw";
  metric.benchmark = benchmark;
  metric.family = "nccl";
  metric.unit = "GB/s";
  metric.better = Better::Higher;
  metric.samples = busbw_samples;
  metric.statistics = summarize(busbw_samples);
  metric.value = metric.statistics.median;
  metric.params = allreduce_params(median);
  return metric;
}

}  // namespace gpubench
