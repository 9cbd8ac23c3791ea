#pragma once
// Which node a baseline was made on, and what that means for the figures that measure the host as much as the GPU
// (the catalogue's node_bound ones: launch and sync latencies, allocation calls, pageable copies). Those differ between
// healthy nodes of one kind: between two lent H200 nodes, launch and sync latencies by up to 35 % and graph
// instantiation by 75 %, while memory, GEMM and pinned copies agreed within 3 %. A baseline made on other nodes
// cannot say what such a figure should be here, so there it is informational, with the reason; on a node the
// baseline was made on it gates as usual. A node is known by its GPUs' UUIDs: hostnames repeat (every lent VM
// here is "vm"), GPUs do not.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/baseline/baseline_document.hpp"

namespace gpubench {

// The UUIDs of the GPUs a results document's environment describes; none when it names none.
std::vector<std::string> gpu_uuids_of(const nlohmann::json& environment);

// Whether a run on these GPUs is on a node the baseline was made on: one of its runs used one of them.
bool made_on_this_node(const Baseline& baseline, const std::vector<std::string>& run_gpus);

// `metric` as it judges metric `id` on the node checked: as it is where the baseline was made, or for a figure
// that is not node-bound; elsewhere, not gating, with the reason.
BaselineMetric as_judged_on_node(const BaselineMetric& metric, const std::string& id, bool made_here);

}  // namespace gpubench
