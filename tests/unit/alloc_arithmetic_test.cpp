// The alloc family's arithmetic: the binary search for the largest block (against a fake allocator), the
// fragmenting pattern's bytes and the figure.
#include <gtest/gtest.h>

#include <cstddef>
#include <set>
#include <vector>

#include "benchmarks/alloc/fragmenting_pattern.hpp"
#include "benchmarks/alloc/largest_block.hpp"

namespace gpubench {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// Grants any request up to `largest` bytes and records what it was asked.
struct FakeAllocator {
  std::size_t largest;
  std::vector<std::size_t> asked;
  bool operator()(std::size_t bytes) {
    asked.push_back(bytes);
    return bytes <= largest;
  }
};

TEST(LargestAllocatable, FindsTheLargestGrantedMultipleOfTheGranularity) {
  for (std::size_t largest : {std::size_t{0}, 1 * kMiB, 2 * kMiB, 7 * kMiB, 1000 * kMiB, 1023 * kMiB, 1024 * kMiB}) {
    FakeAllocator allocator{largest, {}};
    const std::size_t expected = std::min(largest, 1024 * kMiB) / (2 * kMiB) * (2 * kMiB);
    EXPECT_EQ(largest_allocatable(1024 * kMiB, 2 * kMiB, allocator), expected) << largest;
    for (std::size_t bytes : allocator.asked) {
      EXPECT_EQ(bytes % (2 * kMiB), 0u);
      EXPECT_LE(bytes, 1024 * kMiB) << "never asks past its bound";
    }
    EXPECT_LE(allocator.asked.size(), 11u) << "the bound, then a binary search of 512 granules";
  }
}

TEST(LargestAllocatable, TriesTheBoundFirst) {
  FakeAllocator allocator{1u << 30, {}};
  EXPECT_EQ(largest_allocatable(512 * kMiB, 2 * kMiB, allocator), 512 * kMiB);
  EXPECT_EQ(allocator.asked, (std::vector<std::size_t>{512 * kMiB}));
}

TEST(LargestAllocatable, ABoundBelowOneGranuleAsksNothing) {
  FakeAllocator allocator{1u << 30, {}};
  EXPECT_EQ(largest_allocatable(kMiB, 2 * kMiB, allocator), 0u);
  EXPECT_TRUE(allocator.asked.empty());
}

TEST(LargestBlockShare, IsAgainstTheDriversFreeMemoryAndWhatTheAllocatorKeepsCached) {
  EXPECT_EQ(unused_bytes(1024 * kMiB, 0), 1024 * kMiB);
  EXPECT_EQ(unused_bytes(1024 * kMiB, 3072 * kMiB), 4096 * kMiB);
  EXPECT_DOUBLE_EQ(largest_block_share_percent(512 * kMiB, unused_bytes(1024 * kMiB, 0)), 50.0);
  EXPECT_DOUBLE_EQ(largest_block_share_percent(512 * kMiB, unused_bytes(1024 * kMiB, 3072 * kMiB)), 12.5);
  EXPECT_DOUBLE_EQ(largest_block_share_percent(0, 0), 0.0);
}

TEST(FragmentingPattern, StaysWithinItsBudgetAndFreesTheLargeBlocksOutOfOrder) {
  const std::size_t budget = 1024 * kMiB;
  const FragmentingPattern pattern = fragmenting_pattern(budget, 2 * kMiB);
  EXPECT_LE(pattern.allocated_bytes(), budget);
  EXPECT_GT(pattern.allocated_bytes() + 32 * kMiB, budget) << "no room left for another large block";
  ASSERT_GE(pattern.block_bytes.size(), 4u);
  EXPECT_EQ(pattern.block_bytes[0], 32 * kMiB);
  EXPECT_EQ(pattern.block_bytes[1], 4 * kMiB + 64 * 1024) << "small blocks are no whole number of granules";
  const std::set<std::size_t> freed(pattern.freed.begin(), pattern.freed.end());
  EXPECT_EQ(freed.size(), pattern.freed.size()) << "each block freed once";
  for (std::size_t index = 0; index < pattern.block_bytes.size(); ++index) {
    EXPECT_EQ(freed.count(index) == 1, index % 2 == 0) << "the large blocks, and only they, are freed: " << index;
  }
  EXPECT_EQ(pattern.freed.front(), pattern.block_bytes.size() % 2 == 0 ? pattern.block_bytes.size() - 2
                                                                        : pattern.block_bytes.size() - 1);
  EXPECT_EQ(pattern.freed[1], 0u) << "from both ends inwards, not in allocation order";
  std::size_t freed_bytes = 0;
  for (std::size_t index : pattern.freed) freed_bytes += pattern.block_bytes[index];
  EXPECT_EQ(pattern.freed_bytes(), freed_bytes);
}

TEST(FragmentingPattern, ATinyBudgetStillUsesWholeGranules) {
  const FragmentingPattern pattern = fragmenting_pattern(4 * kMiB, 2 * kMiB);
  ASSERT_FALSE(pattern.block_bytes.empty());
  EXPECT_EQ(pattern.block_bytes[0], 2 * kMiB);
  EXPECT_LE(pattern.allocated_bytes(), 4 * kMiB);
}

}  // namespace
}  // namespace gpubench
