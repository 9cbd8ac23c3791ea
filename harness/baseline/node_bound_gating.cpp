#include "harness/baseline/node_bound_gating.hpp"

#include <algorithm>

#include "benchmarks/catalogue.hpp"

namespace gpubench {

std::vector<std::string> gpu_uuids_of(const nlohmann::json& environment) {
  std::vector<std::string> uuids;
  if (!environment.is_object() || !environment.contains("gpus") || !environment["gpus"].is_array()) return uuids;
  for (const nlohmann::json& gpu : environment["gpus"]) {
    if (gpu.is_object() && gpu.contains("uuid") && gpu["uuid"].is_string() && !gpu["uuid"].get<std::string>().empty()) {
      uuids.push_back(gpu["uuid"].get<std::string>());
    }
  }
  return uuids;
}

bool made_on_this_node(const Baseline& baseline, const std::vector<std::string>& run_gpus) {
  return std::any_of(baseline.runs.begin(), baseline.runs.end(), [&](const BaselineRun& run) {
    return std::any_of(run.gpus.begin(), run.gpus.end(), [&](const std::string& uuid) {
      return std::find(run_gpus.begin(), run_gpus.end(), uuid) != run_gpus.end();
    });
  });
}

BaselineMetric as_judged_on_node(const BaselineMetric& metric, const std::string& id, bool made_here) {
  if (made_here || !metric.gates || !node_bound(id)) return metric;
  BaselineMetric elsewhere = metric;
  elsewhere.gates = false;
  elsewhere.gate_reason =
      "it measures the host (CPU, OS, virtualisation) as much as the GPU, and the baseline was made on other nodes "
      "(a baseline made on this node gates it: baselines/README.md)";
  return elsewhere;
}

}  // namespace gpubench
