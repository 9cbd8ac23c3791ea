// Which baseline metrics gate: those whose baseline can tell a change of their tolerance from noise.
#include "harness/baseline/gating.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace gpubench {
namespace {

BaselineMetric metric(double spread_fraction, int runs, double tolerance) {
  BaselineMetric m;
  m.expected = 100;
  m.spread = 100 * spread_fraction;
  m.runs = runs;
  m.tolerance = tolerance;
  return m;
}

TEST(Gating, TheBandIsAPredictionIntervalWithStudentsT) {
  EXPECT_NEAR(baseline_noise(metric(0.01, 3, 0.05)), 19.206 * std::sqrt(4.0 / 3), 1e-3);
  EXPECT_NEAR(baseline_noise(metric(0.01, 5, 0.05)), 6.6201 * std::sqrt(1.2), 1e-3);
  EXPECT_NEAR(baseline_noise(metric(0.01, 10, 0.05)), 4.0942 * std::sqrt(1.1), 1e-3);
  EXPECT_NEAR(baseline_noise(metric(0.01, 1, 0.05)), 3 * std::sqrt(2.0), 1e-12) << "one run: its own spread, as known";
}

TEST(Gating, ASteadyMetricGates) {
  // HBM bandwidth: 0.2 % between runs, 3 % tolerance: 0.9 % band at 10 runs.
  EXPECT_EQ(why_not_gating(metric(0.002, 10, 0.03)), "");
}

TEST(Gating, AWideMetricDoesNotAndTheReasonNamesTheNumbers) {
  // A launch latency: 6.1 % between runs, 15 % tolerance: 4.294 x 6.1 = 26 % at 10 runs, past 1.5 x 15 %.
  EXPECT_EQ(why_not_gating(metric(0.061, 10, 0.15)),
            "run-to-run spread 6.1 % over 10 runs: noise alone moves it up to 26 %, over 1.5 x its 15 % tolerance");
}

TEST(Gating, ABandUpToOneAndAHalfTolerancesStillGates) {
  // Sustained GEMM under a power cap: 1.4 % between runs, 5 % tolerance: a 6 % band at 10 runs, which still
  // sees a GPU 10 % slower.
  EXPECT_EQ(why_not_gating(metric(0.014, 10, 0.05)), "");
}

TEST(Gating, FewRunsWidenTheBandPastTheTolerance) {
  // 0.5 % between runs against a 3 % tolerance: 2.1 % band at 10 runs, 11 % at 3.
  EXPECT_EQ(why_not_gating(metric(0.005, 10, 0.03)), "");
  EXPECT_EQ(why_not_gating(metric(0.005, 3, 0.03)),
            "run-to-run spread 0.5 % over 3 runs: noise alone moves it up to 11 %, over 1.5 x its 3 % tolerance");
}

// check --against RUN: one run's spread is taken as known (t = 3), and a figure too noisy for its tolerance does not
// gate against it either: two healthy runs of one H200 differed by 16 % on a pageable copy.
TEST(Gating, OneRunGatesByItsKnownSpreadLikeAnyBaseline) {
  EXPECT_EQ(why_not_gating(metric(0.002, 1, 0.03)), "") << "a band of 3 x sqrt(2) x 0.2 %";
  EXPECT_NE(why_not_gating(metric(0.02, 1, 0.03)).find("over 1 run: noise alone moves it up to 8.5 %"),
            std::string::npos)
      << why_not_gating(metric(0.02, 1, 0.03));
}

TEST(Gating, ABaselineThatExpectsZeroDoesNotGate) {
  BaselineMetric m = metric(0, 10, 0.05);
  m.expected = 0;
  EXPECT_NE(why_not_gating(m).find("expects 0"), std::string::npos);
}

}  // namespace
}  // namespace gpubench
