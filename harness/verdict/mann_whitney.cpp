#include "harness/verdict/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace gpubench {
namespace {

// The pooled values' ranks (1-based; tied values share the mean of the ranks they span) and, for the variance
// of U, the sum of t^3 - t over each group of t tied values.
struct PooledRanks {
  std::vector<double> ranks;
  double tie_term = 0;
};

PooledRanks rank_pooled(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&values](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  PooledRanks pooled;
  pooled.ranks.resize(values.size());
  for (std::size_t first = 0; first < order.size();) {
    std::size_t last = first;
    while (last + 1 < order.size() && values[order[last + 1]] == values[order[first]]) ++last;
    const double shared = (static_cast<double>(first + last) / 2.0) + 1.0;
    for (std::size_t k = first; k <= last; ++k) pooled.ranks[order[k]] = shared;
    const double tied = static_cast<double>(last - first + 1);
    pooled.tie_term += tied * tied * tied - tied;
    first = last + 1;
  }
  return pooled;
}

// P(U <= u) for samples of m and n distinct values under the null hypothesis, where each of the C(m+n, m)
// orderings of the pooled values is equally likely. Counted by the recurrence on the largest value: it belongs
// to the first sample and beats all n of the second (U falls by n without it), or to the second (U unchanged):
// count(i, j, u) = count(i-1, j, u-j) + count(i, j-1, u). Counts are doubles: C(98, 49) is about 2.5e28, and
// nothing is subtracted, so the rounding stays at the last digit.
double exact_lower_tail(std::size_t m, std::size_t n, double u) {
  // row[j]: the counts of U = 0 .. i*j for i values of the first sample and j of the second.
  std::vector<std::vector<double>> row(n + 1, std::vector<double>{1.0});
  for (std::size_t i = 1; i <= m; ++i) {
    std::vector<std::vector<double>> next(n + 1, std::vector<double>{1.0});
    for (std::size_t j = 1; j <= n; ++j) {
      std::vector<double>& counts = next[j];
      counts.assign(i * j + 1, 0.0);
      for (std::size_t v = 0; v < counts.size(); ++v) {
        if (v >= j && v - j < row[j].size()) counts[v] += row[j][v - j];
        if (v < next[j - 1].size()) counts[v] += next[j - 1][v];
      }
    }
    row = std::move(next);
  }
  const std::vector<double>& counts = row[n];
  const double all = std::accumulate(counts.begin(), counts.end(), 0.0);
  double at_most = 0;
  for (std::size_t v = 0; v < counts.size() && static_cast<double>(v) <= u; ++v) at_most += counts[v];
  return at_most / all;
}

}  // namespace

MannWhitneyResult mann_whitney_u_test(const std::vector<double>& first, const std::vector<double>& second) {
  if (first.empty() || second.empty()) {
    throw std::invalid_argument("the Mann-Whitney U test needs a value on each side");
  }
  std::vector<double> pooled = first;
  pooled.insert(pooled.end(), second.begin(), second.end());
  const PooledRanks ranked = rank_pooled(pooled);
  const double m = static_cast<double>(first.size());
  const double n = static_cast<double>(second.size());
  const auto first_ranks_end = ranked.ranks.begin() + static_cast<std::ptrdiff_t>(first.size());
  const double rank_sum = std::accumulate(ranked.ranks.begin(), first_ranks_end, 0.0);

  MannWhitneyResult result;
  result.u = rank_sum - m * (m + 1) / 2;
  const double nearer_tail = std::min(result.u, m * n - result.u);  // U's distribution is symmetric about mn/2
  if (ranked.tie_term == 0 && first.size() < kExactBelow && second.size() < kExactBelow) {
    result.exact = true;
    result.p_value = std::min(1.0, 2 * exact_lower_tail(first.size(), second.size(), nearer_tail));
    return result;
  }
  const double total = m + n;
  const double variance = m * n / 12 * ((total + 1) - ranked.tie_term / (total * (total - 1)));
  if (variance <= 0) return result;  // every value the same: nothing tells the samples apart
  const double z = (m * n / 2 - nearer_tail - 0.5) / std::sqrt(variance);
  result.p_value = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
  return result;
}

}  // namespace gpubench
