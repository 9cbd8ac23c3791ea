// Theoretical peaks and efficiency, from the numbers a device reports.
#include <gtest/gtest.h>

#include "benchmarks/common/device_peaks.hpp"
#include "harness/results/clock_events.hpp"

namespace gpubench {
namespace {

TEST(PeakArithmetic, DramPeakFromClockAndBusWidth) {
  // H200 (SXM): HBM3e reported at 3201 MHz on a 6144-bit bus -> 2 x 3.201e9 x 768 B = 4916.7 GB/s.
  EXPECT_NEAR(dram_peak_gbps(3201000, 6144), 4916.7, 0.1);
  // A100 40 GB: 1215 MHz, 5120 bits -> 1555.2 GB/s, the datasheet figure.
  EXPECT_NEAR(dram_peak_gbps(1215000, 5120), 1555.2, 0.1);
}

TEST(ClockEvents, NamesAndWhichOnesThrottle) {
  EXPECT_TRUE(clock_event_names(0).empty());
  EXPECT_EQ(clock_event_names(0x1), (std::vector<std::string>{"gpu_idle"}));
  EXPECT_EQ(clock_event_names(0x4 | 0x40), (std::vector<std::string>{"sw_power_cap", "hw_thermal_slowdown"}));
  EXPECT_FALSE(is_throttling(0x1));   // idle
  EXPECT_FALSE(is_throttling(0x2));   // application clocks
  EXPECT_TRUE(is_throttling(0x4));    // power cap
  EXPECT_TRUE(is_throttling(0x8));    // hardware slowdown
  EXPECT_TRUE(is_throttling(0x20));   // software thermal
  EXPECT_EQ(clock_event_names(1ull << 40).back(), "other");
}

}  // namespace
}  // namespace gpubench
