#pragma once
// A run that is not like the others among a baseline's runs: one measured under a competing load, say. Kept, it
// widens the spread of what it disturbed until that stops gating (a run 42 % below the others on BF16 burst left the
// figure a 16 % spread, and it could no longer fail a check), and a baseline that does not gate a figure cannot
// see it regress. `baseline create` names such a run, with the figures that make it one, and leaves it out unless
// told to keep it.
#include <cstddef>
#include <string>
#include <vector>

#include "harness/baseline/baseline_builder.hpp"

namespace gpubench {

// Below this many runs measuring a figure there is no median of the others to hold a run against.
inline constexpr std::size_t kRunsToTellOutliers = 3;

struct OutlyingFigure {
  std::string metric;
  double value = 0;
  double others_median = 0;
  double deviation = 0;  // (value - others_median) / others_median
  double tolerance = 0;
  int others = 0;        // how many other runs measured it
  std::string unit;
};

struct OutlierRun {
  std::size_t index = 0;  // in the runs given
  std::string run_id;
  std::string path;
  std::vector<OutlyingFigure> figures;  // in id order
};

// A run is an outlier when, on a figure that decides acceptance (acceptance_filter) and is not host-bound (the
// host's own tail: the launch speed-up at 100 kernels fell 12-21 % in three of ten healthy runs of one node), it is
// worse than the median of the OTHER runs that measured it by more than 1.5 x the figure's tolerance
// (tolerances.hpp; the change every gating figure catches, so a run a check would call a regression) and by more
// than 3 robust standard deviations of those others (1.4826 x MAD). The better side never makes an outlier. A figure
// measured by fewer than kRunsToTellOutliers runs is not judged. In the order of `runs`.
std::vector<OutlierRun> outlier_runs(const std::vector<SourcedResults>& runs);

// "RUN_ID (FILE): gemm/bf16/8192x8192x8192/gpu0/tflops 400.1 TFLOP/s, -42.0 % against 689.6, the median of the
// other 6 runs (tolerance 5 %); ..."
std::string describe(const OutlierRun& run);

}  // namespace gpubench
