// The overlap family's arithmetic: the efficiency figure, the kernel's calibration and the bytes counted.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "benchmarks/overlap/compute_calibration.hpp"
#include "benchmarks/overlap/overlap_times.hpp"

namespace gpubench {
namespace {

OverlapTimes times(double compute, double copies, double serial, double concurrent) {
  OverlapTimes t;
  t.compute_alone = compute;
  t.copies_alone = copies;
  t.serial = serial;
  t.concurrent = concurrent;
  return t;
}

TEST(OverlapEfficiency, IsTheShareOfTheShorterPartHidden) {
  EXPECT_DOUBLE_EQ(overlap_efficiency_percent(times(2, 3, 5, 3)), 100.0) << "the kernel hidden entirely";
  EXPECT_DOUBLE_EQ(overlap_efficiency_percent(times(4, 2, 6, 5)), 50.0) << "half of the copies hidden";
  EXPECT_DOUBLE_EQ(overlap_efficiency_percent(times(2, 2, 4, 4)), 0.0) << "nothing hidden";
}

TEST(OverlapEfficiency, IsNeverNegativeAndCanPassAHundredByNoise) {
  EXPECT_DOUBLE_EQ(overlap_efficiency_percent(times(2, 2, 4, 5)), 0.0) << "concurrent slower than serial";
  EXPECT_NEAR(overlap_efficiency_percent(times(2, 2, 4.1, 2)), 105.0, 1e-9);
  EXPECT_DOUBLE_EQ(overlap_efficiency_percent(times(0, 2, 2, 2)), 0.0) << "no shorter part to hide";
}

TEST(OverlapTimes, SumAcrossIterations) {
  OverlapTimes total;
  total += times(1, 2, 3, 4);
  total += times(1, 2, 3, 4);
  EXPECT_DOUBLE_EQ(total.serial, 6);
  EXPECT_DOUBLE_EQ(total.sum(), 20);
  EXPECT_DOUBLE_EQ(overlap_efficiency_percent(total), overlap_efficiency_percent(times(1, 2, 3, 4)));
}

TEST(OverlapCopyBytes, CountsBothDirections) {
  EXPECT_DOUBLE_EQ(overlap_copy_bytes(64u << 20), 2.0 * (64u << 20));
}

TEST(ComputeCalibration, ScalesTheProbeToTheTarget) {
  EXPECT_EQ(rounds_lasting(2e-3, 1024, 0.5e-3), 4096u);
  EXPECT_EQ(rounds_lasting(1e-6, 1024, 1e-3), 1u) << "at least one round";
  EXPECT_EQ(rounds_lasting(1e-3, 1024, 0.0), 1u) << "a probe that took no time scales nothing";
  EXPECT_EQ(rounds_lasting(1e6, 1024, 1e-9), std::numeric_limits<std::uint32_t>::max());
}

}  // namespace
}  // namespace gpubench
