#pragma once
// `check --against RUN` and `compare`: another run as the reference, judged by the same rules as a baseline. One run
// knows its figures but not how much they move between healthy runs: two healthy quick runs of one H200, minutes
// apart, differed by 16 % on a pageable 64 MiB copy and 9 % on graph speedup at 10,000 kernels, while each run's own
// repetitions agreed. So the rules come from the node kind's baseline: its tolerance, and its run-to-run spread
// (relative, scaled to the run's value) as the noise of one run against another, where the run's own repetitions do
// not show more. A GPU's own figure that the kind's baseline cannot judge takes its rules from the same GPU model's
// baseline (gpu_model_fallback.hpp); with no baseline, the family's default tolerance and the run's own repetitions
// judge. Every figure gates at the wider of its tolerance and its noise band (a change is clear only past both: BF16
// and FP8 GEMM under a competing GEMM, -46 %, past an FP8 band of 8.6 % that a one-run reference cannot narrow), but
// one a baseline file sets not to gate, and but the host-bound ones.
//
// A figure that measures the host (the catalogue's node_bound: launch, sync and allocation calls, pageable copies)
// is never judged against one run, whatever the rules. Its cost moves between processes far more than within one: of
// two healthy quick runs of one H200 two minutes apart, cudaMalloc of 256 MiB took 2.6 x as long in the second and a
// graph of 100 kernels 1.9 x as long to instantiate, while each run's repetitions agreed within 4 %. The reference
// run's value is one draw from that spread, so neither its repetitions nor a tolerance (15-25 % for these) can tell a
// change from the next process; a baseline of several runs made on the node knows the spread and judges them
// (node_bound_gating.hpp).
#include <string>
#include <vector>

#include "harness/baseline/baseline_builder.hpp"
#include "harness/baseline/baseline_document.hpp"
#include "harness/baseline/machine_kind.hpp"

namespace gpubench {

// Why a host-bound figure is informational against one run.
inline constexpr const char* kHostBoundAgainstOneRun =
    "it measures the host, whose cost moves between processes far more than within one (2.6 x between two healthy "
    "runs of one H200, each run's repetitions within 4 %): one run cannot tell a change from the next process (a "
    "baseline of several runs made on this node judges it)";

// The run as a baseline of one run: each figure's expected value is the run's; its tolerance, run-to-run spread and
// whether it gates follow `rules` (the node kind's baseline, named `rules_path`; null when there is none) and
// `same_model`; host-bound figures do not gate (kHostBoundAgainstOneRun). The baseline keeps the run's GPUs, so a
// check can tell whether it judges a run of the same node.
Baseline run_as_baseline(const SourcedResults& run, const Baseline* rules, const std::string& rules_path,
                         const std::vector<SourcedBaseline>& same_model);

}  // namespace gpubench
