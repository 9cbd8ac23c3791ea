// The alloc family's allocators on a real GPU: a request past the device's memory fails without leaving an error
// behind, the pool keeps what is freed cached and gives it all back when it goes, and the binary search finds a
// block that a real allocation then grants.
#include <gtest/gtest.h>

#include <cstddef>

#include "benchmarks/alloc/device_allocator.hpp"
#include "benchmarks/alloc/largest_block.hpp"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

std::size_t free_bytes() {
  std::size_t free = 0, total = 0;
  GPUBENCH_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

std::size_t total_bytes() {
  std::size_t free = 0, total = 0;
  GPUBENCH_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return total;
}

class Allocator : public ::testing::TestWithParam<AllocatorKind> {};

TEST_P(Allocator, OutOfMemoryIsNotStickyAndTheContextStaysUsable) {
  GPUBENCH_REQUIRE_GPU();
  if (GetParam() == AllocatorKind::StreamOrdered && !memory_pools_supported()) GTEST_SKIP() << "no memory pools";
  DeviceAllocator allocator(GetParam());
  EXPECT_EQ(allocator.allocate(2 * total_bytes()), nullptr);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the failed attempt's error was cleared";
  EXPECT_TRUE(allocator.can_allocate(64 * kMiB));
}

TEST_P(Allocator, TheSearchFindsABlockThatCanBeAllocated) {
  GPUBENCH_REQUIRE_GPU();
  if (GetParam() == AllocatorKind::StreamOrdered && !memory_pools_supported()) GTEST_SKIP() << "no memory pools";
  DeviceAllocator allocator(GetParam());
  const std::size_t bound = free_bytes() / 8 / (2 * kMiB) * (2 * kMiB);
  const std::size_t largest =
      largest_allocatable(bound, 2 * kMiB, [&](std::size_t bytes) { return allocator.can_allocate(bytes); });
  EXPECT_EQ(largest, bound) << "an eighth of the free memory of an idle GPU is one block";
  void* block = allocator.allocate(largest);
  ASSERT_NE(block, nullptr);
  allocator.release(block);
  allocator.synchronize();
}

INSTANTIATE_TEST_SUITE_P(BothAllocators, Allocator,
                         ::testing::Values(AllocatorKind::CudaMalloc, AllocatorKind::StreamOrdered),
                         [](const ::testing::TestParamInfo<AllocatorKind>& info) {
                           return allocator_name(info.param);
                         });

TEST(StreamOrderedPool, KeepsFreedMemoryCachedAndGivesItBackWhenItGoes) {
  GPUBENCH_REQUIRE_GPU();
  if (!memory_pools_supported()) GTEST_SKIP() << "no memory pools";
  const std::size_t bytes = 512 * kMiB;
  const std::size_t before = free_bytes();
  {
    DeviceAllocator allocator(AllocatorKind::StreamOrdered);
    void* block = allocator.allocate(bytes);
    ASSERT_NE(block, nullptr);
    allocator.release(block);
    allocator.synchronize();
    EXPECT_GE(allocator.pool_reserved_bytes(), bytes) << "the release threshold keeps it in the pool";
    EXPECT_LE(free_bytes() + bytes, before + 64 * kMiB) << "still held from the driver";
  }
  EXPECT_GE(free_bytes() + 64 * kMiB, before) << "trimmed and destroyed: the GPU as it was found";
}

}  // namespace
}  // namespace gpubench
