// The maximum achievable matmul search: which shapes it tries, and which it times again as bursts.
#include "benchmarks/gemm/shape_search.hpp"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

namespace gpubench {
namespace {

TEST(ShapeSearch, TriesEveryCombinationOfTheDimensionsOnce) {
  const std::vector<GemmShape> grid = search_grid();
  const std::size_t n = kSearchDimensions.size();
  EXPECT_EQ(grid.size(), n * n * n);
  std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> distinct;
  for (const GemmShape& s : grid) distinct.insert({s.m, s.n, s.k});
  EXPECT_EQ(distinct.size(), grid.size());
  EXPECT_TRUE(distinct.count({8192, 8192, 8192})) << "the fixed shapes' burst figure is among the candidates";
}

TEST(ShapeSearch, KeepsTheFastestFastestFirst) {
  const std::vector<ShapeThroughput> measured = {
      {{4096, 4096, 4096}, 600}, {{8192, 8192, 8192}, 690}, {{16384, 8192, 4096}, 700}, {{4096, 16384, 8192}, 650}};
  const std::vector<ShapeThroughput> top = fastest(measured, 3);
  ASSERT_EQ(top.size(), 3u);
  EXPECT_EQ(top[0].tflops, 700);
  EXPECT_EQ(top[1].tflops, 690);
  EXPECT_EQ(top[2].tflops, 650);
  EXPECT_EQ(fastest({measured[0]}, 3).size(), 1u) << "fewer measured than finalists";
  EXPECT_TRUE(fastest({}, 3).empty());
}

}  // namespace
}  // namespace gpubench
