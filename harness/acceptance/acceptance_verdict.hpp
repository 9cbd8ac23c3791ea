#pragma once
// The verdict of `gpubench acceptance`: one per GPU and one for the node, from its stages — doctor's health
// findings, the quick suite checked against the baseline, a short stress run and, when asked for, NVIDIA DCGM's
// diagnostic. A GPU fails when any stage fails it; the node fails when a GPU fails or a node-wide finding (a
// critical doctor finding for no GPU in particular, a regression of a multi-GPU figure, a DCGM software test) fails
// it. Each stage's findings count as their own vocabulary maps onto pass/warn/fail (grade_of). The stress stage
// also lists, without judging them again, what the power and pulse loads and the copies under load measured. The
// report's formats are harness/report/'s.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/acceptance/dcgm_diag.hpp"
#include "harness/doctor/finding.hpp"
#include "harness/doctor/gpu_identity.hpp"
#include "harness/results/grade.hpp"
#include "harness/stress/stress_rules.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

struct StageResult {
  std::string stage;  // doctor, performance, stress, dcgm
  Grade verdict = Grade::Pass;
  std::vector<std::string> reasons;
  bool skipped = false;  // the stage could not run at all; reasons say why
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
  std::string level;                    // quick, standard, long (acceptance_level.hpp)
  std::vector<std::string> level_runs;  // what that level ran, as level_runs() says
};

// The stage acceptance could not get past: doctor when CUDA offers no usable GPU, or a stage that could not finish
// (its error). That stage fails for the reason, unless its own findings fail it already (doctor's cuda.no_gpu);
// the stages after it are reported as not run, so that the reports say where and why acceptance stopped.
struct StageStop {
  std::string stage;  // doctor, performance, stress, dcgm
  std::string reason;
};

// What `dcgmi diag` gave, when acceptance was asked to run it.
struct DcgmEvidence {
  std::string skipped_because;  // dcgmi is not installed
  std::string no_result;        // it ran but gave no results: why
  DcgmDiagReport report;
  std::map<int, int> cuda_index;  // DCGM GPU id -> CUDA index (dcgm_to_cuda_indexes)
};

struct AcceptanceEvidence {
  std::vector<GpuIdentity> gpus;  // the GPUs tested
  std::vector<Finding> doctor;
  std::optional<CheckReport> check;  // empty when no baseline matched: performance is then a warning, for this reason:
  std::string baseline_note;
  std::vector<GpuStressVerdict> stress;  // every stress run's, each GPU once per run
  std::optional<DcgmEvidence> dcgm;  // empty unless --dcgm was given
  std::string level;
  std::vector<std::string> level_runs;
  std::optional<StageStop> stopped;  // empty when every stage ran
};

AcceptanceReport judge_acceptance(const AcceptanceEvidence& evidence);

}  // namespace gpubench
