#include "harness/doctor/health_rules.hpp"

#include <algorithm>

#include "harness/doctor/rule_support.hpp"

namespace gpubench {
namespace {

void judge_availability(const NodeFacts& facts, std::vector<Finding>& out) {
  if (!facts.cuda_why_not.empty()) {
    out.push_back({Severity::Critical, "cuda.no_gpu", {}, "CUDA sees no usable GPU: " + facts.cuda_why_not,
                   "check that the driver is loaded (`nvidia-smi`), that CUDA_VISIBLE_DEVICES does not hide every GPU, and "
                   "`dmesg` for Xid or 'fallen off the bus' errors"});
  }
  if (!facts.nvml_why_not.empty()) {
    out.push_back({Severity::Critical, "nvml.unavailable", {}, "no GPU health can be read without NVML (" + facts.nvml_why_not + ")",
                   "install the NVIDIA driver, which brings libnvidia-ml.so.1 (containers need the NVIDIA container toolkit to mount it)"});
    return;
  }
  for (const GpuFacts& gpu : facts.gpus) {
    if (gpu.nvml_why_not.empty()) continue;
    out.push_back({Severity::Info, "nvml.gpu_not_found", {gpu.index},
                   "NVML has no device at PCI bus id " + gpu.pci_bus_id + " (" + gpu.nvml_why_not + "): its NVML checks are skipped",
                   "compare `nvidia-smi -L` with the GPUs CUDA sees; a MIG instance or a GPU hidden from NVML shows this"});
  }
}

}  // namespace

std::vector<Finding> judge_node_health(const NodeFacts& facts, const HealthLimits& limits, const std::optional<NodeProfile>& expected) {
  std::vector<Finding> findings;
  judge_availability(facts, findings);
  if (expected) judge_inventory(facts, *expected, findings);
  judge_gpu_state(facts, limits, findings);
  judge_gpu_memory(facts, limits, findings);
  judge_gpu_links(facts, limits, findings);
  judge_pcie_errors(facts, limits, findings);
  judge_xids(facts, limits, findings);
  judge_host(facts, findings);
  judge_variables(facts.host.variables, findings);
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
  return findings;
}

bool any_critical(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return f.severity == Severity::Critical; });
}

}  // namespace gpubench
