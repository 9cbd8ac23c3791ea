#pragma once
// Which baseline judges a GPU's own figure that the node kind's baseline cannot. A GPU's own figures (memory, GEMM,
// caches, block size of one GPU: the catalogue's gpu_own_figure) depend on the GPU model, driver and libraries, not
// on how many GPUs share the node: an H200's HBM and Tensor Cores are the same in a one-GPU VM and on an eight-GPU
// board. So where the node kind's baseline does not gate such a figure, lacks it, or gates it only at a wider
// tolerance (made from too few runs, say: the shipped two-H200 file has three, which gate BF16 8192^3 at the 28 % its
// noise allows where the one-H200 file's eight runs gate it at 5 %), a baseline of the same GPU model made on another
// kind of node judges it: of those that gate the figure, the one made from the most runs. Node figures (pairs,
// collectives, all-GPU copies, host-bound figures) never fall back: they depend on the node.
#include <optional>
#include <string>
#include <vector>

#include "harness/baseline/baseline_document.hpp"
#include "harness/baseline/machine_kind.hpp"

namespace gpubench {

struct FallbackJudge {
  std::string path;       // the baseline file that judges
  std::string id;         // the figure's id there: the same, or the same figure on GPU 0 of a baseline of fewer GPUs
  BaselineMetric metric;  // its entry there
};

// The baseline of the same GPU model that judges metric `id` in place of the node kind's entry `kinds` (null where the
// kind's baseline lacks it), or nothing when `id` is not a GPU's own figure, no such baseline gates it, or the kind's
// gates it at a tolerance (gating_tolerance) no wider than that baseline's.
std::optional<FallbackJudge> gpu_model_judge(const std::string& id, const BaselineMetric* kinds,
                                             const std::vector<SourcedBaseline>& same_model);

}  // namespace gpubench
