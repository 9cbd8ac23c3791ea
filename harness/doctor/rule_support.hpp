#pragma once
// What the rule files share: a per-GPU check run over every GPU, whose quiet GPUs become one ok finding,
// and the rule groups health_rules.cpp calls.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "harness/doctor/finding.hpp"
#include "harness/doctor/health_rules.hpp"
#include "harness/doctor/node_facts.hpp"

namespace gpubench {

// What one check says about one GPU.
class GpuCheck {
 public:
  GpuCheck(std::string check, int gpu) : check_(std::move(check)), gpu_(gpu) {}
  void flag(Severity severity, std::string finding, std::string fix);
  // An info finding: what the check needs could not be read, and why.
  void cannot_check(const std::string& what, const std::string& why);
  // Nothing to judge on this GPU (no NVLinks, ECC off ...): neither a finding nor an ok.
  void skip() { skipped_ = true; }

  bool skipped() const { return skipped_; }
  const std::vector<Finding>& findings() const { return findings_; }

 private:
  std::string check_;
  int gpu_;
  bool skipped_ = false;
  std::vector<Finding> findings_;
};

using GpuRule = std::function<void(const GpuFacts&, GpuCheck&)>;

// What a rule reads: NVML's readings exist only for the GPUs NVML sees; sysfs and CUDA readings for every GPU.
enum class RuleReads { Nvml, Other };

// Runs a rule on every GPU it can judge; the GPUs it found nothing on make one ok finding.
void check_each_gpu(const NodeFacts& facts, const std::string& check, const std::string& ok_text, const GpuRule& rule,
                    std::vector<Finding>& out, RuleReads reads = RuleReads::Nvml);

// "1.5 GiB"
std::string format_bytes(std::uint64_t bytes);

// The GPU of `facts` with CUDA index `index`, or null.
const GpuFacts* same_gpu(const NodeFacts& facts, int index);

// How much a counter rose between two readings; a counter that went down (a driver reload reset it) rose by none.
inline std::uint64_t rise(std::uint64_t before, std::uint64_t after) { return after > before ? after - before : 0; }

// The rule groups, one file each.
void judge_gpu_state(const NodeFacts& facts, const HealthLimits& limits, std::vector<Finding>& out);  // gpu_rules.cpp
void judge_gpu_memory(const NodeFacts& facts, const HealthLimits& limits, std::vector<Finding>& out);  // memory_rules.cpp
void judge_gpu_links(const NodeFacts& facts, const HealthLimits& limits, std::vector<Finding>& out);  // link_rules.cpp
void judge_xids(const NodeFacts& facts, const HealthLimits& limits, std::vector<Finding>& out);  // xid_rules.cpp
void judge_pcie_errors(const NodeFacts& facts, const HealthLimits& limits, std::vector<Finding>& out);  // pcie_error_rules.cpp
void judge_inventory(const NodeFacts& facts, const NodeProfile& profile, std::vector<Finding>& out);  // inventory_rules.cpp
void judge_host(const NodeFacts& facts, std::vector<Finding>& out);  // host_rules.cpp
void judge_variables(const std::map<std::string, std::string>& variables, std::vector<Finding>& out);  // variable_rules.cpp

}  // namespace gpubench
