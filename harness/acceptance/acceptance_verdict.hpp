#pragma once
// The verdict of `gpubench acceptance`: one per GPU and one for the node, from three stages — doctor's
// health findings, the quick suite checked against the baseline, and a short stress run. A GPU fails when
// any stage fails it; the node fails when a GPU fails or a node-wide finding (a critical doctor finding for
// no GPU in particular, a regression of a multi-GPU figure) fails it. Each stage's findings count as their own
// vocabulary maps onto pass/warn/fail (grade_of). The report's formats are harness/report/'s.
#include <optional>
#include <string>
#include <vector>

#include "harness/doctor/finding.hpp"
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
  int index = 0;
  Grade verdict = Grade::Pass;
  std::vector<StageResult> stages;
};

struct AcceptanceReport {
  Grade node_verdict = Grade::Pass;
  std::vector<StageResult> node_stages;  // what belongs to the node as a whole
  std::vector<GpuAcceptance> gpus;
  std::string baseline;  // the baseline used, or why none was
};

// `check` is empty when no baseline matched (`baseline_note` says why): performance is then a warning.
AcceptanceReport judge_acceptance(const std::vector<int>& devices, const std::vector<Finding>& doctor,
                                  const std::optional<CheckReport>& check, const std::string& baseline_note,
                                  const std::vector<GpuStressVerdict>& stress);

}  // namespace gpubench
