#include "harness/verdict/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "harness/results/statistics.hpp"

namespace gpubench {
namespace {

struct Split {
  std::size_t tau = 0;  // split point within the segment
  double q = -1;        // scaled energy divergence at tau
};

// The best split of x by the energy statistic Q(tau) = tau (m - tau) / m * E(tau), where E is twice the mean
// distance between the two sides less the mean distance within each side. Sums of |xi - xj| over blocks come
// from a 2-D prefix sum of the distance matrix, so each candidate costs O(1).
Split best_split(const std::vector<double>& x, std::size_t min_segment) {
  const std::size_t m = x.size();
  Split best;
  if (m < 2 * min_segment) return best;
  std::vector<double> prefix((m + 1) * (m + 1), 0.0);
  const auto at = [&](std::size_t r, std::size_t c) -> double& { return prefix[r * (m + 1) + c]; };
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < m; ++j) at(i + 1, j + 1) = std::fabs(x[i] - x[j]) + at(i, j + 1) + at(i + 1, j) - at(i, j);
  }
  const auto block = [&](std::size_t r0, std::size_t r1, std::size_t c0, std::size_t c1) {
    return at(r1, c1) - at(r0, c1) - at(r1, c0) + at(r0, c0);
  };
  for (std::size_t tau = min_segment; tau + min_segment <= m; ++tau) {
    const double left = static_cast<double>(tau);
    const double right = static_cast<double>(m - tau);
    const double between = block(0, tau, tau, m) / (left * right);
    const double within_left = block(0, tau, 0, tau) / (left * (left - 1));    // ordered pairs count twice
    const double within_right = block(tau, m, tau, m) / (right * (right - 1));
    const double energy = 2 * between - within_left - within_right;
    const double q = left * right / static_cast<double>(m) * energy;
    if (q > best.q) best = {tau, q};
  }
  return best;
}

}  // namespace

// The 1e-9 keeps rounding from moving a boundary: 10 / 0.02 must give 500, and 0.01 x 1000 must give 10.
int permutations_for(double significance) { return static_cast<int>(std::ceil(10 / significance - 1e-9)) - 1; }

std::vector<ChangePoint> find_change_points(const std::vector<double>& series, const ChangePointOptions& options) {
  std::vector<std::size_t> cuts = {0, series.size()};
  std::map<std::size_t, double> p_values;  // of each accepted cut
  std::mt19937_64 random(options.seed);
  while (true) {
    // The segment whose best split diverges most is tested next.
    Split chosen;
    std::size_t chosen_start = 0;
    std::vector<double> chosen_segment;
    for (std::size_t s = 0; s + 1 < cuts.size(); ++s) {
      std::vector<double> segment(series.begin() + cuts[s], series.begin() + cuts[s + 1]);
      const Split split = best_split(segment, options.min_segment);
      if (split.q > chosen.q) {
        chosen = split;
        chosen_start = cuts[s];
        chosen_segment = std::move(segment);
      }
    }
    if (chosen.q <= 0) break;
    // p = (as_extreme + 1) / (permutations + 1), kept when p <= significance, that is when as_extreme is at
    // most `allowed`. Once it passes that, the remaining permutations cannot change the answer: skip them.
    const int permutations = permutations_for(options.significance);
    const int allowed = static_cast<int>(std::floor(options.significance * (permutations + 1) + 1e-9)) - 1;
    int as_extreme = 0;
    std::vector<double> shuffled = chosen_segment;
    for (int p = 0; p < permutations && as_extreme <= allowed; ++p) {
      std::shuffle(shuffled.begin(), shuffled.end(), random);
      if (best_split(shuffled, options.min_segment).q >= chosen.q) ++as_extreme;
    }
    if (as_extreme > allowed) break;
    const double p_value = (as_extreme + 1.0) / (permutations + 1.0);
    const std::size_t cut = chosen_start + chosen.tau;
    cuts.insert(std::upper_bound(cuts.begin(), cuts.end(), cut), cut);
    p_values[cut] = p_value;
  }
  std::vector<ChangePoint> points;
  for (std::size_t c = 1; c + 1 < cuts.size(); ++c) {
    ChangePoint point;
    point.index = cuts[c];
    point.p_value = p_values[cuts[c]];
    point.before_median = median(std::vector<double>(series.begin() + cuts[c - 1], series.begin() + cuts[c]));
    point.after_median = median(std::vector<double>(series.begin() + cuts[c], series.begin() + cuts[c + 1]));
    point.relative_change = point.before_median != 0 ? (point.after_median - point.before_median) / point.before_median : 0;
    points.push_back(point);
  }
  return points;
}

std::size_t fewest_runs_to_find_a_change(const ChangePointOptions& options) {
  // A few orderings as extreme as the one seen are to be expected, so the count of orderings must be well past
  // 1 / significance: four times it (C(12, 6) = 924 at 0.01, where C(10, 5) = 252 falls short).
  const double needed = 4 / options.significance;
  std::size_t runs = 2 * options.min_segment;
  const auto orderings = [](std::size_t n) {
    double count = 1;
    for (std::size_t k = 1; k <= n / 2; ++k) count = count * static_cast<double>(n - n / 2 + k) / static_cast<double>(k);
    return count;
  };
  while (orderings(runs) < needed) ++runs;
  return runs;
}

}  // namespace gpubench
