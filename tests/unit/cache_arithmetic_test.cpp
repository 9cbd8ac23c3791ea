// The cache family's arithmetic: the working-set sweep around the L2 size, the bytes a launch reads, the
// shared-memory peak and what each thread of the shared-memory kernel must sum, and which reference an L2 figure
// is compared with.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>

#include "benchmarks/cache/cache_peaks.hpp"
#include "benchmarks/cache/l2_chunk_layout.hpp"
#include "benchmarks/cache/shared_read_arithmetic.hpp"
#include "benchmarks/cache/working_sets.hpp"

namespace gpubench {
namespace {

std::size_t count_between(const std::vector<std::size_t>& sizes, double low, double high) {
  return static_cast<std::size_t>(
      std::count_if(sizes.begin(), sizes.end(), [&](std::size_t s) { return s > low && s <= high; }));
}

TEST(CacheArithmetic, TheFullSweepSurroundsTheL2OfRecentDataCentreGpus) {
  const std::vector<std::size_t> sizes = l2_working_sets(Suite::Full);
  EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
  EXPECT_EQ(std::set<std::size_t>(sizes.begin(), sizes.end()).size(), sizes.size());
  EXPECT_LE(sizes.front(), 4 * kKiB);
  // A100 reports 40 MiB, H100 and H200 50 MiB: points inside L2 near the edge, just outside it, and far out.
  for (const std::size_t l2 : {40 * kMiB, 50 * kMiB}) {
    const double l2_bytes = static_cast<double>(l2);
    EXPECT_GE(count_between(sizes, 0.5 * l2_bytes, l2_bytes), 2u) << l2;
    EXPECT_GE(count_between(sizes, l2_bytes, 2 * l2_bytes), 2u) << l2;
    EXPECT_GE(static_cast<double>(sizes.back()), 8 * l2_bytes) << l2;
  }
}

TEST(CacheArithmetic, TheQuickSweepHasPointsOnBothSidesOfAnH100sL2) {
  const std::vector<std::size_t> sizes = l2_working_sets(Suite::Quick);
  EXPECT_LE(sizes.size(), 4u);
  const std::size_t l2 = 50 * kMiB;
  EXPECT_EQ(std::count_if(sizes.begin(), sizes.end(), [&](std::size_t s) { return fits_in_l2(s, l2); }), 2);
  EXPECT_GE(sizes.back(), 4 * l2);
  for (std::size_t s : sizes) {
    const std::vector<std::size_t> full = l2_working_sets(Suite::Full);
    EXPECT_NE(std::find(full.begin(), full.end(), s), full.end()) << "quick ids are a subset of the full ones: " << s;
  }
}

TEST(CacheArithmetic, ALaunchReadsAtLeastItsBytesInWholeUnrolledLoads) {
  const std::size_t threads = 132 * 4 * 512;  // an H200 filled with 512-thread blocks
  for (const std::size_t working_set : {4 * kKiB, 50 * kMiB, 512 * kMiB, 8 * kGiB}) {
    const std::uint32_t loads = l2_loads_per_thread(working_set, threads, 4);
    EXPECT_EQ(loads % 4, 0u) << working_set;
    const std::size_t bytes = l2_bytes_per_launch(threads, loads);
    const std::size_t wanted = std::max(kL2BytesPerLaunch, working_set);
    EXPECT_GE(bytes, wanted) << working_set;
    EXPECT_LT(bytes - wanted, threads * 4 * kL2LoadBytes) << working_set;
  }
  // 4 GiB over 270336 threads: 992.97 loads each, 993 rounded up to 996 (a multiple of 4).
  EXPECT_EQ(l2_loads_per_thread(4 * kMiB, threads, 4), 996u);
  EXPECT_EQ(l2_bytes_per_launch(threads, 996), std::size_t{270336} * 996 * 16);
}

TEST(CacheArithmetic, SharedMemoryPeakIs128BytesPerClockPerSm) {
  // H200 (and H100 SXM): 132 SMs, 1980 MHz boost clock.
  EXPECT_NEAR(shared_peak_gbps_per_sm(1980000), 253.44, 1e-9);
  EXPECT_NEAR(shared_peak_gbps(132, 1980000), 33454.08, 1e-6);
  // A100: 108 SMs at 1410 MHz.
  EXPECT_NEAR(shared_peak_gbps(108, 1410000), 19491.84, 1e-6);
}

TEST(CacheArithmetic, SharedReadBytesAndEachThreadsSum) {
  EXPECT_EQ(shared_read_bytes_per_launch(1024, 2048, 4), std::size_t{1024} * 2048 * 4 * 16);
  // A block of 2 threads, 2 vectors each: thread 0 reads vectors 0 and 2, thread 1 vectors 1 and 3.
  const std::vector<std::uint32_t> tile = {1, 2, 3, 4, 10, 20, 30, 40, 100, 200, 300, 400, 0xFFFFFFFFu, 0, 0, 1};
  EXPECT_EQ(expected_shared_sink_word(tile, 0, 2, 2, 3), 3u * (10 + 1000));
  EXPECT_EQ(expected_shared_sink_word(tile, 1, 2, 2, 3), 3u * (100 + 0));  // 0xFFFFFFFF + 1 wraps to 0
}

TEST(CacheArithmetic, AnL2FigureIsComparedWithThePublicMeasurementForItsGpu) {
  const L2Reference h200 = l2_reference("NVIDIA H200");
  ASSERT_TRUE(h200.gbps.has_value());
  EXPECT_DOUBLE_EQ(*h200.gbps, 10619.2);
  EXPECT_NE(h200.source.find("h200.txt"), std::string::npos);

  const L2Reference h100_pcie = l2_reference("NVIDIA H100 PCIe");
  ASSERT_TRUE(h100_pcie.gbps.has_value());
  EXPECT_DOUBLE_EQ(*h100_pcie.gbps, 7380.3);

  const L2Reference a100 = l2_reference("NVIDIA A100-SXM4-80GB");
  EXPECT_FALSE(a100.gbps.has_value());
  EXPECT_NE(a100.source.find("none"), std::string::npos);
}

TEST(CacheArithmetic, TheChunkedReadTakesOnlyWorkingSetsOfManyWholeChunks) {
  for (const Suite suite : {Suite::Quick, Suite::Full}) {
    for (const std::size_t working_set : l2_chunk_working_sets(suite)) {
      const std::optional<L2ChunkLayout> layout = l2_chunk_layout(working_set);
      ASSERT_TRUE(layout.has_value()) << working_set;
      EXPECT_GE(layout->chunks, kMinL2Chunks) << working_set;
      EXPECT_EQ(layout->blocks % layout->chunks, 0u) << working_set;
      EXPECT_EQ(layout->bytes_per_launch, layout->blocks * kL2ChunkBytes) << working_set;
      EXPECT_GE(layout->bytes_per_launch, kL2ChunkBytesPerLaunch) << working_set;
      EXPECT_LT(layout->bytes_per_launch, kL2ChunkBytesPerLaunch + layout->chunks * kL2ChunkBytes) << working_set;
    }
  }
  // 4 MiB is 8 chunks of 512 KiB; 64 GiB a launch is 131072 blocks, 16384 on each chunk.
  const L2ChunkLayout four = *l2_chunk_layout(4 * kMiB);
  EXPECT_EQ(four.chunks, 8u);
  EXPECT_EQ(four.blocks, 131072u);
  // 24 MiB is 48 chunks; 131072 is not a multiple of 48, so 2731 * 48 = 131088 blocks.
  EXPECT_EQ(l2_chunk_layout(24 * kMiB)->blocks, 131088u);
  // 16 GiB, the largest power of two within 32-bit indices, is 32768 chunks read 4 times.
  EXPECT_EQ(l2_chunk_layout(16 * kGiB)->blocks, 131072u);

  EXPECT_FALSE(l2_chunk_layout(0).has_value());
  EXPECT_FALSE(l2_chunk_layout(7 * 512 * kKiB).has_value());      // too few chunks: L1 would merge the reads
  EXPECT_FALSE(l2_chunk_layout(4 * kMiB + 64 * kKiB).has_value());  // not whole chunks
  EXPECT_FALSE(l2_chunk_layout(32 * kGiB).has_value());            // more words than 32-bit indices reach
}

}  // namespace
}  // namespace gpubench
