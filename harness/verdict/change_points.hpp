#pragma once
// Change points in a series of measurements by E-divisive means (Matteson & James, "A Nonparametric Approach
// for Multiple Change Point Analysis of Multivariate Data", JASA 2014): binary segmentation on the energy
// statistic (alpha = 1), each candidate kept only when a permutation test finds it significant. This is the
// method MongoDB's and Datadog's performance-regression tooling adopted for noisy benchmark histories.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpubench {

struct ChangePointOptions {
  double significance = 0.01;   // a change is kept when its permutation p-value is at most this
  std::size_t min_segment = 3;  // fewest points on each side of a change
  std::uint64_t seed = 20141;   // the permutation test is deterministic for a given series
};

struct ChangePoint {
  std::size_t index = 0;  // first point after the change
  double p_value = 1;
  double before_median = 0;  // of the segment that ends at the change
  double after_median = 0;   // of the segment that starts there
  double relative_change = 0;  // (after - before) / before
};

// How many permutations test each candidate: enough that the smallest p-value the test can give,
// 1 / (permutations + 1), is a tenth of the significance (999 at 0.01), so that a clear change is not
// rejected for want of permutations.
int permutations_for(double significance);

// The fewest runs in which a change can be found at all: `min_segment` on each side, and enough that the permutation
// test can reach the significance (an even split of n runs has C(n, n/2) orderings; a p-value at most `significance`
// needs some hundreds of them at 0.01: 12 runs).
std::size_t fewest_runs_to_find_a_change(const ChangePointOptions& options);

// Sorted by index.
std::vector<ChangePoint> find_change_points(const std::vector<double>& series, const ChangePointOptions& options = {});

}  // namespace gpubench
