// Expected values are worked by hand below; each was also checked by brute force (every ordering of the pooled
// samples enumerated) and by the normal approximation's formula, in Python's standard library.
#include "harness/verdict/mann_whitney.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>

namespace gpubench {
namespace {

std::vector<double> counting(double from, std::size_t count) {
  std::vector<double> values(count);
  std::iota(values.begin(), values.end(), from);
  return values;
}

TEST(MannWhitney, CompleteSeparationIsTheSmallestExactPValue) {
  // Of the C(8, 4) = 70 orderings of 4 + 4 distinct values, one puts all of the first sample above the second
  // (U = 16) and one below (U = 0): p = 2 / 70.
  const MannWhitneyResult four = mann_whitney_u_test({5, 6, 7, 8}, {1, 2, 3, 4});
  EXPECT_TRUE(four.exact);
  EXPECT_DOUBLE_EQ(four.u, 16);
  EXPECT_NEAR(four.p_value, 2.0 / 70, 1e-12);
  // 5 + 5: 2 / C(10, 5) = 2 / 252.
  EXPECT_NEAR(mann_whitney_u_test({1, 2, 3, 4, 5}, {10, 11, 12, 13, 14}).p_value, 2.0 / 252, 1e-12);
  // 3 + 3: 2 / C(6, 3) = 0.1, never below 0.05, however far apart the runs are.
  EXPECT_NEAR(mann_whitney_u_test({1, 2, 3}, {4, 5, 6}).p_value, 0.1, 1e-12);
}

TEST(MannWhitney, ExactTailCountsEveryOrderingAsExtreme) {
  // {1, 2, 3, 5} against {4, 6, 7, 8}: only 5 > 4, so U = 1. The orderings with U <= 1 are U = 0 (one) and U = 1
  // (one: the smallest swap), so p = 2 x 2 / 70.
  const MannWhitneyResult one_swap = mann_whitney_u_test({1, 2, 3, 5}, {4, 6, 7, 8});
  EXPECT_DOUBLE_EQ(one_swap.u, 1);
  EXPECT_NEAR(one_swap.p_value, 4.0 / 70, 1e-12);
  // Interleaved, 5 + 6: U = 0 + 1 + 2 + 3 + 5 = 11 (each value of the first beats that many of the second);
  // 124 of the C(11, 5) = 462 orderings have U <= 11, p = 2 x 124 / 462.
  const MannWhitneyResult mixed = mann_whitney_u_test({1.0, 2.5, 4.0, 6.0, 9.0}, {2.0, 3.0, 5.0, 7.0, 8.0, 10.0});
  EXPECT_TRUE(mixed.exact);
  EXPECT_DOUBLE_EQ(mixed.u, 11);
  EXPECT_NEAR(mixed.p_value, 248.0 / 462, 1e-12);
}

TEST(MannWhitney, TiesUseTheNormalApproximationWithTieCorrection) {
  // {1, 2, 2, 3} against {2, 3, 4, 5}. Pooled ranks: 1 -> 1, the three 2s -> 3, the two 3s -> 5.5, 4 -> 7, 5 -> 8.
  // First rank sum 1 + 3 + 3 + 5.5 = 12.5, U = 12.5 - 4 x 5 / 2 = 2.5; mean mn/2 = 8.
  // Tie term (3^3 - 3) + (2^3 - 2) = 30; variance 16/12 x (9 - 30/56) = 11.2857; z = (5.5 - 0.5) / 3.35942 = 1.48835;
  // p = erfc(z / sqrt 2) = 0.136658.
  const MannWhitneyResult tied = mann_whitney_u_test({1, 2, 2, 3}, {2, 3, 4, 5});
  EXPECT_FALSE(tied.exact);
  EXPECT_DOUBLE_EQ(tied.u, 2.5);
  EXPECT_NEAR(tied.p_value, 0.136658247738, 1e-9);
}

TEST(MannWhitney, LargeSamplesUseTheNormalApproximation) {
  // 0..49 against 50..99: U = 0, mean 1250, variance 2500 x 101 / 12; z = 1249.5 / 145.057 = 8.6139,
  // p = 7.06607e-18.
  const MannWhitneyResult far = mann_whitney_u_test(counting(0, 50), counting(50, 50));
  EXPECT_FALSE(far.exact);
  EXPECT_DOUBLE_EQ(far.u, 0);
  EXPECT_NEAR(far.p_value / 7.066071930389e-18, 1.0, 1e-9);
  // Both below 50 and no ties: exact, 2 / C(20, 10) for 10 + 10 apart (the approximation would say 1.83e-4).
  EXPECT_NEAR(mann_whitney_u_test(counting(0, 10), counting(20, 10)).p_value, 2.0 / 184756, 1e-15);
}

TEST(MannWhitney, SameValuesEverywhereGiveOne) {
  const MannWhitneyResult same = mann_whitney_u_test({7, 7, 7, 7}, {7, 7, 7, 7});
  EXPECT_DOUBLE_EQ(same.u, 8);
  EXPECT_DOUBLE_EQ(same.p_value, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_u_test({1, 2, 3, 4}, {1, 2, 3, 4}).p_value, 1.0) << "U at its mean: erfc of a negative z, capped";
  EXPECT_THROW(mann_whitney_u_test({}, {1, 2}), std::invalid_argument);
}

}  // namespace
}  // namespace gpubench
