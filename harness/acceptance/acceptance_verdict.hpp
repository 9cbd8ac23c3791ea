#pragma once
// The verdict of `gpubench acceptance`: one per GPU and one for the node, from three stages — doctor's health
// findings, the quick suite checked against the baseline, and a short stress run. A GPU fails when any stage fails
// it; the node fails when a GPU fails or a node-wide finding (a critical doctor finding for no GPU in particular, a
// regression of a multi-GPU figure) fails it. Each stage's findings count as their own vocabulary maps onto
// pass/warn/fail (grade_of). The report's formats are harness/report/'s.
#include <optional>
#include <string>
#include <vector>

#include "harness/doctor/finding.hpp"
#include "harness/doctor/gpu_identity.hpp"
#include "harness/results/grade.hpp"
#include "harness/stress/stress_rules.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

struct StageResult {
  std::string stage;  // doctor, performance, stress
  Grade verdict = Grade::Pass;
  std::vector<std::string> reasons;
};

struct GpuAcceptance {
  GpuIdentity gpu;
  Grade verdict = Grade::Pass;
  std::vector<StageResult> stages;
};

struct AcceptanceReport {
  Grade node_verdict = Grade::Pass;
  std::vector<StageResult> node_stages;  // what belongs to the node as a whole
  std::vector<GpuAcceptance> gpus;
  std::string baseline;  // the baseline used, or why none was
};

struct AcceptanceEvidence {
  std::vector<GpuIdentity> gpus;  // the GPUs tested
  std::vector<Finding> doctor;
  std::optional<CheckReport> check;  // empty when no baseline matched: performance is then a warning, for this reason:
  std::string baseline_note;
  std::vector<GpuStressVerdict> stress;
};

AcceptanceReport judge_acceptance(const AcceptanceEvidence& evidence);

}  // namespace gpubench
