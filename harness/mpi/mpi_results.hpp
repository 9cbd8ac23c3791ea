#pragma once
// gpubench-mpi's results: one gpubench.results/1 document, written by rank 0, whose metric ids are those of
// gpubench-micro's nccl family, so that `gpubench compare` can set one process per GPU against one process
// for all GPUs.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "benchmarks/nccl/allreduce_sweep.hpp"
#include "harness/results/results_document.hpp"

namespace gpubench {

// run: id, start time, host, version, command line, suite, and the CUDA devices the ranks on this node use.
RunInfo mpi_run_info(const std::vector<std::string>& command_line, const std::string& suite, const std::vector<int>& devices);

// The usual fingerprint of this node (its `devices`), plus ranks[] (every rank's node and GPU, in rank order)
// and mpi {world_size, library}.
nlohmann::json mpi_environment(const std::vector<int>& devices, const nlohmann::json& ranks, int world_size);

// The busbw metric of one benchmark: same id, unit and params as gpubench-micro's.
Metric allreduce_metric(const std::string& benchmark, const std::vector<double>& busbw_samples,
                        const AllReduceMeasurement& median);

}  // namespace gpubench
