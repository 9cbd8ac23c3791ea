// The theoretical rate of a PCIe link from its generation and width, and what counts as trained below max.
#include "benchmarks/common/pcie_link.hpp"

#include <gtest/gtest.h>

namespace gpubench {
namespace {

TEST(PcieLink, LaneRatesAndEncodingsPerGeneration) {
  EXPECT_EQ(pcie_lane_rate_gtps(1), 2.5);
  EXPECT_EQ(pcie_lane_rate_gtps(3), 8.0);
  EXPECT_EQ(pcie_lane_rate_gtps(6), 64.0);
  EXPECT_EQ(pcie_encoding_efficiency(2), 0.8);                   // 8b/10b
  EXPECT_EQ(pcie_encoding_efficiency(5), 128.0 / 130.0);         // 128b/130b
  EXPECT_EQ(pcie_encoding_efficiency(6), 242.0 / 256.0);         // FLIT: 256 bytes less 8 CRC and 6 FEC
  EXPECT_FALSE(pcie_lane_rate_gtps(0));
  EXPECT_FALSE(pcie_lane_rate_gtps(7));
  EXPECT_FALSE(pcie_encoding_efficiency(7));
}

TEST(PcieLink, PeakPerDirectionInDecimalGigabytes) {
  EXPECT_NEAR(*pcie_link_peak_gbps(5, 16), 63.015, 0.001);  // H100/H200: 32 x 128/130 x 16 / 8
  EXPECT_NEAR(*pcie_link_peak_gbps(4, 16), 31.508, 0.001);  // A100
  EXPECT_NEAR(*pcie_link_peak_gbps(3, 16), 15.754, 0.001);
  EXPECT_NEAR(*pcie_link_peak_gbps(2, 16), 8.0, 1e-9);
  EXPECT_NEAR(*pcie_link_peak_gbps(1, 16), 4.0, 1e-9);
  EXPECT_NEAR(*pcie_link_peak_gbps(6, 16), 121.0, 1e-9);    // 64 x 242/256 x 16 / 8
  EXPECT_NEAR(*pcie_link_peak_gbps(5, 8), 31.508, 0.001);   // half the lanes, half the rate
  EXPECT_NEAR(*pcie_link_peak_gbps(4, 1), 1.969, 0.001);
  // The H200 targets (55.4 GB/s one way, 51.7 both ways) are 88 % and 82 % of a gen5 x16 link.
  EXPECT_NEAR(55.4 / *pcie_link_peak_gbps(5, 16), 0.879, 0.001);
  EXPECT_FALSE(pcie_link_peak_gbps(5, 0));
  EXPECT_FALSE(pcie_link_peak_gbps(0, 16));
  EXPECT_FALSE(pcie_link_peak_gbps(9, 16));
  static_assert(pcie_link_peak_gbps(2, 4).value() == 2.0, "usable at compile time");
}

TEST(PcieLink, PeakUsesTheCurrentLinkAndFallsBackToTheMaximum) {
  PcieLinkState link;
  EXPECT_FALSE(link_peak_gbps(link)) << "nothing known";
  link.max_generation = 5;
  link.max_width = 16;
  EXPECT_NEAR(*link_peak_gbps(link), 63.015, 0.001);
  link.current_generation = 4;
  link.current_width = 8;
  EXPECT_NEAR(*link_peak_gbps(link), 15.754, 0.001) << "the rate of the link as it trained";
  link = {};
  link.current_generation = 5;
  EXPECT_FALSE(link_peak_gbps(link)) << "no width at all";
}

TEST(PcieLink, BelowMaxWhenEitherGenerationOrWidthIsLower) {
  EXPECT_FALSE(link_below_max({5, 16, 5, 16}));
  EXPECT_TRUE(link_below_max({4, 16, 5, 16}));
  EXPECT_TRUE(link_below_max({5, 8, 5, 16}));
  EXPECT_TRUE(link_below_max({1, 1, 5, 16}));
  EXPECT_FALSE(link_below_max({})) << "unknown is not below";
  EXPECT_FALSE(link_below_max({4, std::nullopt, std::nullopt, 16})) << "nothing to compare with";
}

TEST(PcieLink, NothingReadWithoutNvml) {
  const PcieLinkState link = read_pcie_link(nullptr, nullptr);
  EXPECT_FALSE(link.current_generation || link.current_width || link.max_generation || link.max_width);
}

}  // namespace
}  // namespace gpubench
