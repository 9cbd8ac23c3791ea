#pragma once
// The two-sided Mann-Whitney U test (Wilcoxon rank-sum): do two sets of repetitions come from one distribution?
// It assumes nothing about the shape of the noise, which is why Google Benchmark's tools/compare.py uses it to
// say whether two runs of a benchmark differ.
//
// The p-value is exact (the distribution of U over every ordering of the pooled samples) when there are no ties
// and both samples hold fewer than kExactBelow values, as R's wilcox.test does; otherwise it is the normal
// approximation with the tie and continuity corrections (scipy.stats.mannwhitneyu, method="asymptotic"). The
// normal approximation overstates small p-values of small samples many times over, hence the exact branch.
#include <cstddef>
#include <vector>

namespace gpubench {

inline constexpr std::size_t kExactBelow = 50;

struct MannWhitneyResult {
  double u = 0;        // U of the first sample: pairs (a, b) with a > b, ties counted one half
  double p_value = 1;  // two-sided
  bool exact = false;  // false: the normal approximation
};

// Throws std::invalid_argument when either sample is empty.
MannWhitneyResult mann_whitney_u_test(const std::vector<double>& first, const std::vector<double>& second);

}  // namespace gpubench
