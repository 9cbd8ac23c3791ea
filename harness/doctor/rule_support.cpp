#include "harness/doctor/rule_support.hpp"

#include <cstdio>

namespace gpubench {

void GpuCheck::flag(Severity severity, std::string finding, std::string fix) {
  findings_.push_back({severity, check_, {gpu_}, std::move(finding), std::move(fix)});
}

void GpuCheck::cannot_check(const std::string& what, const std::string& why) {
  flag(Severity::Info, "cannot check " + what + ": " + (why.empty() ? "not readable" : why), "");
}

void check_each_gpu(const NodeFacts& facts, const std::string& check, const std::string& ok_text, const GpuRule& rule,
                    std::vector<Finding>& out, RuleReads reads) {
  const bool needs_nvml = reads == RuleReads::Nvml;
  if (needs_nvml && !facts.nvml_why_not.empty()) return;  // one critical finding says so already
  std::vector<int> quiet;
  for (const GpuFacts& gpu : facts.gpus) {
    if (needs_nvml && !gpu.nvml_why_not.empty()) continue;
    GpuCheck verdict(check, gpu.index);
    rule(gpu, verdict);
    if (verdict.skipped()) continue;
    if (verdict.findings().empty()) quiet.push_back(gpu.index);
    out.insert(out.end(), verdict.findings().begin(), verdict.findings().end());
  }
  if (!quiet.empty()) out.push_back({Severity::Ok, check, quiet, ok_text, ""});
}

const GpuFacts* same_gpu(const NodeFacts& facts, int index) {
  for (const GpuFacts& gpu : facts.gpus) {
    if (gpu.index == index) return &gpu;
  }
  return nullptr;
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return text;
}

}  // namespace gpubench
