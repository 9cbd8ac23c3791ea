#pragma once
// The telemetry of a gpubench-mpi run, in families[].telemetry as `gpubench run` keeps it: each rank samples its
// own GPU with NVML while the sweep runs and rank 0 gathers them. A GPU of rank 0's node is "gpuN", as in a
// single-process document; a GPU of another node is "HOST/gpuN", since device indices repeat across nodes.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gpubench {

// `ranks`: environment.ranks[] (each with "host"), in rank order; `per_rank`: each rank's TelemetrySampler
// result ({"gpuN": {...}}, or {} without NVML) as JSON text, in the same order. Throws nlohmann::json errors
// on text that is not JSON.
nlohmann::json merge_rank_telemetry(const nlohmann::json& ranks, const std::vector<std::string>& per_rank,
                                    const std::string& root_host);

}  // namespace gpubench
