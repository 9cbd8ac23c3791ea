// The blocksize family's launch shapes, grids and best-over-worst ratio.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "benchmarks/blocksize/launch_shapes.hpp"

namespace gpubench {
namespace {

TEST(LaunchShapes, TheFullSuiteCoversBlocks32To1024AndTheQuickSuiteItsCorners) {
  const std::vector<LaunchShape> full = launch_shapes(Suite::Full);
  EXPECT_EQ(full.size(), 24u);
  std::set<int> blocks;
  std::set<std::string> names;
  for (const LaunchShape& shape : full) {
    blocks.insert(shape.block);
    names.insert(shape_name(shape));
  }
  EXPECT_EQ(blocks, (std::set<int>{32, 64, 128, 256, 512, 1024}));
  EXPECT_EQ(names.size(), full.size());

  std::vector<std::string> quick;
  for (const LaunchShape& shape : launch_shapes(Suite::Quick)) {
    quick.push_back(shape_name(shape));
    EXPECT_EQ(names.count(shape_name(shape)), 1u) << "quick ids are a subset of the full ones";
  }
  EXPECT_EQ(quick, (std::vector<std::string>{"block32/1_per_sm", "block32/max_per_sm", "block1024/1_per_sm",
                                             "block1024/max_per_sm"}));
}

TEST(LaunchShapes, GridIsBlocksPerSmTimesSmsOrAsManyAsFit) {
  EXPECT_EQ(grid_of({32, 2}, 132, 32), 264);
  EXPECT_EQ(grid_of({256, 0}, 132, 8), 1056);
  EXPECT_EQ(grid_of({1024, 4}, 132, 2), 528) << "more than fit: the grid runs in waves";
}

TEST(LaunchShapes, BestOverWorst) {
  const BestAndWorst extremes = best_and_worst({100.0, 400.0, 50.0, 399.0});
  EXPECT_EQ(extremes.best, 1u);
  EXPECT_EQ(extremes.worst, 2u);
  EXPECT_DOUBLE_EQ(extremes.ratio, 8.0);
  EXPECT_DOUBLE_EQ(best_and_worst({3000.0}).ratio, 1.0);
  EXPECT_THROW(best_and_worst({}), std::invalid_argument);
  EXPECT_THROW(best_and_worst({100.0, 0.0}), std::invalid_argument);
}

}  // namespace
}  // namespace gpubench
