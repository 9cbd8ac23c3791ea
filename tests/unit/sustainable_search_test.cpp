// The maximum sustainable matmul search's shapes: whole waves of output tiles, both orientations, K stepped, and
// the refinement around the best scouts.
#include "benchmarks/gemm/sustainable_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>

namespace gpubench {
namespace {

constexpr int kH200Sms = 132;

bool contains(const std::vector<GemmShape>& shapes, const GemmShape& shape) {
  return std::find(shapes.begin(), shapes.end(), shape) != shapes.end();
}

TEST(SustainableSearch, ScoutsWholeWavesOfTilesInBothOrientationsAtEveryK) {
  for (int sms : {kH200Sms, 108, 114, 78}) {  // H100/H200 SXM, A100, H100 PCIe, an odd count
    const std::vector<GemmShape> scouts = scout_shapes(sms);
    ASSERT_FALSE(scouts.empty()) << sms << " SMs";
    std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> distinct;
    for (const GemmShape& s : scouts) {
      distinct.insert({s.m, s.n, s.k});
      const std::optional<int> waves = whole_waves(s, sms);
      ASSERT_TRUE(waves.has_value()) << shape_name(s) << " on " << sms << " SMs";
      EXPECT_NE(std::find(kScoutWaves.begin(), kScoutWaves.end(), *waves), kScoutWaves.end());
      EXPECT_NE(std::find(kScoutK.begin(), kScoutK.end(), s.k), kScoutK.end());
      EXPECT_GE(std::min(s.m, s.n), kSustainableMinDimension);
      EXPECT_LE(std::max(s.m, s.n), kSustainableMaxDimension);
      if (s.m != s.n && s.m % kWaveTileN == 0) {
        EXPECT_TRUE(contains(scouts, {s.n, s.m, s.k})) << "the transpose of " << shape_name(s) << " is scouted too";
      }
    }
    EXPECT_EQ(distinct.size(), scouts.size()) << "no shape twice";
  }
}

TEST(SustainableSearch, SixteenWavesOnAnH200IsTheShapeMamfFinderFound) {
  // mamf-finder v4's sustainable headline on an H200 was 8192 x 8448 x 20480: 64 x 33 tiles, 16 waves of 132.
  const auto layouts = wave_layouts(16, kH200Sms);
  ASSERT_FALSE(layouts.empty());
  EXPECT_EQ(layouts.front(), std::make_pair(std::int64_t{8192}, std::int64_t{8448}));
  EXPECT_EQ(whole_waves({8192, 8448, 20480}, kH200Sms), 16);
  EXPECT_EQ(whole_waves({8192, 8192, 8192}, kH200Sms), std::nullopt) << "2048 tiles are not whole waves of 132";
  EXPECT_TRUE(wave_layouts(1, kH200Sms).empty()) << "one wave is 132 tiles: no layout of 2048 or more on each side";
}

TEST(SustainableSearch, RefinesAroundTheBestScoutsWithoutRepeatingAShape) {
  const std::vector<GemmShape> scouts = scout_shapes(kH200Sms);
  const GemmShape best{8192, 8448, 16384};
  ASSERT_TRUE(contains(scouts, best));
  const std::vector<GemmShape> refined = refine_shapes({{best, 700}}, scouts, kH200Sms);
  EXPECT_TRUE(contains(refined, {8192, 8448, 16384 - kRefineKStep}));
  EXPECT_TRUE(contains(refined, {8192, 8448, 16384 + kRefineKStep}));
  for (int waves : {16 - kRefineWaveStep, 16 + kRefineWaveStep}) {
    for (const auto& [m, n] : wave_layouts(waves, kH200Sms)) {
      EXPECT_TRUE(contains(refined, {m, n, 16384})) << waves << " waves";
    }
  }
  for (const GemmShape& s : refined) EXPECT_FALSE(contains(scouts, s)) << shape_name(s) << " was scouted already";
  const std::vector<GemmShape> longest = refine_shapes({{{8192, 8448, kSustainableMaxK}, 700}}, {}, kH200Sms);
  for (const GemmShape& s : longest) EXPECT_LE(s.k, kSustainableMaxK);
  EXPECT_TRUE(refine_shapes({{{8192, 8192, 8192}, 690}}, {}, kH200Sms).size() == 2u)
      << "a shape of no whole wave count is refined in K only";
}

}  // namespace
}  // namespace gpubench
