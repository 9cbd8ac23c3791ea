// The host around the GPUs: whether this process runs next to its GPUs (NUMA), and the CPU frequency governor.
#include <algorithm>
#include <iterator>
#include <map>

#include "benchmarks/common/cpu_list.hpp"
#include "benchmarks/common/device_selection.hpp"
#include "harness/doctor/rule_support.hpp"

namespace gpubench {
namespace {

void judge_numa_placement(const NodeFacts& facts, std::vector<Finding>& out) {
  const char* check = "numa.process_placement";
  if (facts.gpus.empty()) return;
  const Reading<std::vector<int>>& allowed = facts.host.allowed_cpus;
  if (!allowed.value) {
    out.push_back({Severity::Info, check, {}, "cannot check where this process runs: " + allowed.why_not, ""});
    return;
  }
  std::map<int, std::vector<const GpuFacts*>> by_node;
  std::vector<int> unknown;
  for (const GpuFacts& gpu : facts.gpus) {
    if (gpu.numa_node >= 0 && gpu.local_cpus.value && !gpu.local_cpus.value->empty()) {
      by_node[gpu.numa_node].push_back(&gpu);
    } else {
      unknown.push_back(gpu.index);
    }
  }
  if (!unknown.empty()) {
    out.push_back({Severity::Info, check, unknown,
                   "the platform reports no NUMA node for GPU " + format_device_list(unknown) + " (usual in VMs): placement cannot be checked", ""});
  }
  const std::string may_run = "this process may run on CPUs " + format_cpu_list(*allowed.value);
  std::vector<int> quiet;
  for (const auto& [node, gpus] : by_node) {
    const std::vector<int>& local = *gpus.front()->local_cpus.value;  // one node, one CPU list
    std::vector<int> indexes;
    for (const GpuFacts* gpu : gpus) indexes.push_back(gpu->index);
    std::vector<int> near;
    std::set_intersection(allowed.value->begin(), allowed.value->end(), local.begin(), local.end(), std::back_inserter(near));
    const std::string node_text = "NUMA node " + std::to_string(node) + " (CPUs " + format_cpu_list(local) + ")";
    const std::string gpu_text = "GPU " + format_device_list(indexes);
    const std::string bind = "`numactl --cpunodebind=" + std::to_string(node) + " --membind=" + std::to_string(node) + " <command>`";
    if (near.size() == allowed.value->size()) {
      quiet.insert(quiet.end(), indexes.begin(), indexes.end());
    } else if (near.empty()) {
      out.push_back({Severity::Warning, check, indexes,
                     may_run + ", none of them on " + node_text + " next to " + gpu_text +
                         ": its copies and kernel launches cross the link between sockets",
                     "run work for " + gpu_text + " on their node: " + bind + ", or `taskset -c " + format_cpu_list(local) + " <command>`"});
    } else {
      out.push_back({Severity::Info, check, indexes,
                     may_run + ", of which " + format_cpu_list(near) + " are on " + node_text + " next to " + gpu_text +
                         ": threads on the others cross the link between sockets",
                     "for work on " + gpu_text + " alone, bind it to their node: " + bind});
    }
  }
  std::sort(quiet.begin(), quiet.end());
  if (!quiet.empty()) out.push_back({Severity::Ok, check, quiet, "this process runs only on CPUs next to these GPUs", ""});
}

void judge_governor(const HostFacts& host, std::vector<Finding>& out) {
  const char* check = "cpu.governor";
  if (!host.governors.value) {
    out.push_back({Severity::Info, check, {}, "CPU frequency governor not readable: " + host.governors.why_not,
                   "where the CPUs scale their frequency, choose the performance profile in the BIOS (in a VM, the host decides)"});
    return;
  }
  std::size_t cpus = 0;
  bool all_performance = true;
  for (const auto& [governor, list] : *host.governors.value) {
    cpus += list.size();
    if (governor == "performance") continue;
    all_performance = false;
    out.push_back({Severity::Warning, check, {},
                   "CPUs " + format_cpu_list(list) + " use the '" + governor + "' frequency governor, not 'performance': "
                   "host-side work (kernel launches, CPU-staged copies, NCCL's proxy threads) runs at lower, varying clocks",
                   "as root `cpupower frequency-set -g performance` (or `tuned-adm profile throughput-performance`); doctor itself changes nothing"});
  }
  if (all_performance) out.push_back({Severity::Ok, check, {}, "all " + std::to_string(cpus) + " CPUs use the performance governor", ""});
}

}  // namespace

void judge_host(const NodeFacts& facts, std::vector<Finding>& out) {
  judge_numa_placement(facts, out);
  judge_governor(facts.host, out);
}

}  // namespace gpubench
