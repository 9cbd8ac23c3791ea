#pragma once
// `check --against RUN`: another run as the reference, judged by the same rules as a baseline. One run knows its
// figures but not how much they move between healthy runs: two healthy quick runs of one H200, minutes apart, differed
// by 16 % on a pageable 64 MiB copy and 9 % on graph speedup at 10,000 kernels, while each run's own repetitions
// agreed. So the rules come from the node kind's baseline: a figure it does not gate does not gate against the run
// either, and its run-to-run spread (relative, scaled to the run's value) is the noise of one run against another,
// where the run's own repetitions do not show more. A GPU's own figure that the kind's baseline cannot judge takes its
// rules from the same GPU model's baseline (gpu_model_fallback.hpp). A figure that measures the host (the catalogue's
// node_bound) gates only by the rules of a baseline made on the run's node: with none, its spread between runs on
// this node is unknown, and on two lent H200 nodes it differed by up to 35 %.
#include <string>
#include <vector>

#include "harness/baseline/baseline_builder.hpp"
#include "harness/baseline/baseline_document.hpp"
#include "harness/baseline/machine_kind.hpp"

namespace gpubench {

// The run as a baseline of one run: each figure's expected value is the run's; its tolerance, run-to-run spread and
// whether it gates follow `rules` (the node kind's baseline, named `rules_path`; null when there is none) and
// `same_model`. Host-bound figures of another node stay informational by the node rule (node_bound_gating.hpp), as
// the baseline keeps the run's GPUs.
Baseline run_as_baseline(const SourcedResults& run, const Baseline* rules, const std::string& rules_path,
                         const std::vector<SourcedBaseline>& same_model);

}  // namespace gpubench
