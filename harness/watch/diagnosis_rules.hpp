#pragma once
// The rules `gpubench watch` diagnoses a GPU with, each over the GPU's whole timeline and this node's measured
// ceilings (docs/watch.md gives each rule's threshold, its source and the fix). A rule fires only when its
// condition held in most of the samples that could judge it, and only when those were most of the timeline;
// with too little data it says that it could not run and why, rather than guess.
#include <map>
#include <string>
#include <vector>

#include "harness/watch/node_ceilings.hpp"
#include "harness/watch/steady_part.hpp"
#include "harness/watch/watch_timeline.hpp"

namespace gpubench {

enum class RuleOutcome { Fired, Clear, CouldNotRun };

struct WatchFinding {
  std::string rule;  // stable id: "gpu_starved", "memory_bandwidth_bound", ...
  RuleOutcome outcome = RuleOutcome::Clear;
  std::string evidence;  // the numbers behind the outcome; for CouldNotRun, why not
  std::string fix;       // what to try; empty unless fired
  std::string source;    // where the threshold comes from
  // When fired, what caused it, as a stable id: gpu_starved's "host_thread", "cpu_preprocessing", "waiting_disk",
  // "waiting_network", "waiting_sleep", "waiting_lock", "waiting_gpu", "waiting_local", "waiting_other",
  // "waiting_unknown" or "unknown"; empty for rules with one cause.
  std::string cause;
};

// What every rule reads: the job, one of its GPUs (the samples of its steady part, steady_part.hpp) and that GPU's
// ceilings (empty when the results document measured nothing of it).
struct RuleInput {
  const WatchTimeline& job;
  const GpuTimeline& gpu;
  const GpuCeilings& ceilings;
};

WatchFinding gpu_starved(const RuleInput& in);
WatchFinding tensor_cores_idle(const RuleInput& in);
WatchFinding memory_bandwidth_bound(const RuleInput& in);
WatchFinding many_small_kernels(const RuleInput& in);
WatchFinding memory_nearly_full(const RuleInput& in);
WatchFinding thermal_or_power_slowdown(const RuleInput& in);
WatchFinding host_transfers_at_ceiling(const RuleInput& in);
WatchFinding nvlink_near_ceiling(const RuleInput& in);
WatchFinding pcie_link_degraded(const RuleInput& in);
WatchFinding xid_or_ecc_events(const RuleInput& in);

struct GpuDiagnosis {
  int gpu = 0;
  SteadyPart steady;  // the part of the timeline the rules judged
  std::vector<WatchFinding> findings;  // every rule's, in the order above
  // "no bottleneck found" when nothing fired on enough data, naming the rules that could not run; the count of
  // findings when some fired; why not when the timeline is too short to judge.
  std::string summary;
};

GpuDiagnosis diagnose_gpu(const WatchTimeline& job, const GpuTimeline& gpu, const GpuCeilings& ceilings);
std::vector<GpuDiagnosis> diagnose(const WatchTimeline& job, const std::map<int, GpuCeilings>& ceilings);

const char* outcome_name(RuleOutcome outcome);  // "fired", "clear", "could not run"
const char* outcome_mark(RuleOutcome outcome);  // as printed before a rule: "FIRED", "clear", "not run"
// A finding's evidence without the "could not run: " it opens with when the rule could not run.
std::string evidence_without_outcome(const WatchFinding& finding);

}  // namespace gpubench
