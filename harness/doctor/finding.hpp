#pragma once
// One health finding of `gpubench doctor`: how bad, which GPUs, which check (a stable id such as
// "pcie.link_below_max"), what was found and the fix to try.
#include <string>
#include <vector>

#include "harness/results/grade.hpp"

namespace gpubench {

// Ordered from harmless to worst, so that findings sort by it.
enum class Severity { Ok, Info, Warning, Critical };

struct Finding {
  Severity severity = Severity::Ok;
  std::string check;
  std::vector<int> gpus;  // CUDA indexes; empty for the node as a whole
  std::string finding;
  std::string fix;  // empty when there is nothing to do
};

const char* severity_name(Severity severity);  // "critical", "warning", "info", "ok"

// What a finding does to a verdict: critical fails, a warning warns, info and ok pass.
Grade grade_of(Severity severity);

}  // namespace gpubench
