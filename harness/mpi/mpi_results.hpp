#pragma once
// gpubench-mpi's results: one gpubench.results/1 document, written by rank 0, made the way `gpubench run` makes
// its own — start_results_document for the run and the node's fingerprint, and each benchmark's repetitions read
// by the import of gpubench-micro's Google Benchmark JSON — so that its metrics have the ids, params, clock and
// throttle fields of gpubench-micro's nccl family, and `gpubench compare` can set one process per GPU against
// one process for all GPUs.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "benchmarks/nccl_mpi/mpi_collective_runner.hpp"
#include "harness/mpi/rank_clocks.hpp"
#include "harness/results/results_document.hpp"

namespace gpubench {

class NvmlLibrary;

// start_results_document's, for the CUDA devices the ranks on this node use, plus environment.ranks[] (every
// rank's node and GPU, in rank order) and environment.mpi {world_size, library}.
ResultsDocument start_mpi_results_document(const std::vector<std::string>& command_line, const std::string& suite,
                                           const std::vector<int>& devices, const nlohmann::json& ranks, int world_size,
                                           const NvmlLibrary* nvml, const std::string& nvml_error);

// One benchmark's outcome as gpubench-micro's Google Benchmark JSON holds one: {"benchmarks": [...]} with an
// entry per repetition (its busbw as the value, the figure's label), the clocks on the last one (they are read
// once, as the benchmark ends); or one error entry whose outcome label says skipped, or failed and how.
nlohmann::json collective_benchmark_json(const std::string& benchmark, const MpiCollectiveOutcome& outcome,
                                        const RankClocks& clocks);

}  // namespace gpubench
