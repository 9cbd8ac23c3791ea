// The cache family's kernels on a real GPU: every thread's sink word checked against a host reference on random
// data, the L2 read's device verifier shown to agree and to catch a wrong word, and the bandwidths shown to be
// plausible (an L2-resident working set reads faster than one far larger than L2; shared memory stays below its
// peak).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "benchmarks/cache/cache_peaks.hpp"
#include "benchmarks/cache/l2_chunk_layout.hpp"
#include "benchmarks/cache/working_sets.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/event_timer.hpp"
#include "kernels/l2_chunk_read.cuh"
#include "kernels/l2_read.cuh"
#include "kernels/random_fill.cuh"
#include "kernels/shared_read.cuh"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

template <class T>
std::vector<T> to_host(const DeviceBuffer<T>& buffer) {
  std::vector<T> out(buffer.count());
  GPUBENCH_CUDA_CHECK(cudaMemcpy(out.data(), buffer.get(), buffer.bytes(), cudaMemcpyDeviceToHost));
  return out;
}

// Waits for a launch that writes one sink word a thread, and counts the words that differ from `expected(t)`,
// thread t's word by a host reference.
template <class Expected>
std::size_t wrong_sink_words(const DeviceBuffer<std::uint32_t>& sink, Expected expected) {
  GPUBENCH_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<std::uint32_t> host_sink = to_host(sink);
  std::size_t wrong = 0;
  for (std::size_t t = 0; t < host_sink.size(); ++t) wrong += host_sink[t] != expected(t);
  return wrong;
}

int device_attribute(cudaDeviceAttr attribute) {
  int device = 0;
  int value = 0;
  GPUBENCH_CUDA_CHECK(cudaGetDevice(&device));
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
  return value;
}

unsigned long long l2_mismatches(const kernels::L2ReadArgs& args, int grid) {
  DeviceBuffer<unsigned long long> mismatches(1);
  GPUBENCH_CUDA_CHECK(cudaMemset(mismatches.get(), 0, mismatches.bytes()));
  GPUBENCH_CUDA_CHECK(kernels::count_l2_read_mismatches(args, grid, mismatches.get(), nullptr));
  return to_host(mismatches)[0];
}

// Working sets smaller and larger than the grid's thread count (7 blocks of 512: 3584 threads), neither a
// multiple of it, so that loads wrap round the working set at every step.
class L2Read : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(L2Read, EveryThreadXorsTheVectorsAHostReferenceSaysItLoads) {
  GPUBENCH_REQUIRE_GPU();
  const std::uint32_t vectors = GetParam();
  constexpr int kGrid = 7;
  const std::size_t threads = static_cast<std::size_t>(kGrid) * kernels::kL2ReadBlock;
  DeviceBuffer<uint4> data(vectors);
  DeviceBuffer<std::uint32_t> sink(threads);
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(data.get(), data.bytes(), 41, nullptr));
  GPUBENCH_CUDA_CHECK(cudaMemset(sink.get(), 0xFF, sink.bytes()));
  const kernels::L2ReadArgs args{data.get(), vectors, 12, sink.get()};
  GPUBENCH_CUDA_CHECK(kernels::launch_l2_read(args, kGrid, nullptr));

  const std::vector<uint4> host_data = to_host(data);
  const std::size_t wrong = wrong_sink_words(sink, [&](std::size_t t) {
    std::uint32_t expected = 0;
    for (std::size_t j = 0; j < args.loads_per_thread; ++j) {
      const uint4 x = host_data[(t + j * threads) % vectors];
      expected ^= x.x ^ x.y ^ x.z ^ x.w;
    }
    return expected;
  });
  EXPECT_EQ(wrong, 0u) << "of " << threads << " threads";
  EXPECT_EQ(l2_mismatches(args, kGrid), 0u);

  const std::uint32_t flipped = to_host(sink)[threads / 2] ^ 0x100u;
  GPUBENCH_CUDA_CHECK(cudaMemcpy(sink.get() + threads / 2, &flipped, sizeof flipped, cudaMemcpyHostToDevice));
  EXPECT_EQ(l2_mismatches(args, kGrid), 1u) << "one wrong sink word is one wrong thread";
}

INSTANTIATE_TEST_SUITE_P(WorkingSets, L2Read, ::testing::Values(256u, 1000u, 5000u, 100003u));

unsigned long long l2_chunk_mismatches(const kernels::L2ChunkReadArgs& args) {
  DeviceBuffer<unsigned long long> mismatches(1);
  GPUBENCH_CUDA_CHECK(cudaMemset(mismatches.get(), 0, mismatches.bytes()));
  GPUBENCH_CUDA_CHECK(kernels::count_l2_chunk_read_mismatches(args, mismatches.get(), nullptr));
  return to_host(mismatches)[0];
}

// The smallest working set the chunked read takes, and one of an odd number of chunks.
class L2ChunkRead : public ::testing::TestWithParam<std::size_t> {};

TEST_P(L2ChunkRead, EveryThreadXorsTheWordsAHostReferenceSaysItLoads) {
  GPUBENCH_REQUIRE_GPU();
  const std::size_t working_set_bytes = GetParam();
  const std::optional<L2ChunkLayout> layout = l2_chunk_layout(working_set_bytes);
  ASSERT_TRUE(layout.has_value());
  const std::size_t words = working_set_bytes / kL2ChunkLoadBytes;
  const std::size_t chunks = layout->chunks;
  DeviceBuffer<uint2> data(words);
  DeviceBuffer<std::uint32_t> sink(chunks * kernels::kL2ChunkBlock);
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(data.get(), data.bytes(), 41, nullptr));
  GPUBENCH_CUDA_CHECK(cudaMemset(sink.get(), 0xFF, sink.bytes()));
  const kernels::L2ChunkReadArgs args{data.get(), layout->chunks, sink.get()};
  GPUBENCH_CUDA_CHECK(kernels::launch_l2_chunk_read(args, 3 * chunks, nullptr));

  // Thread t of chunk c (sink word c * block + t) reads, from each of the chunk's pieces i, the two words t and
  // t + block of piece i * chunks + c, a piece being two blocks' worth of words.
  const std::vector<uint2> host_data = to_host(data);
  const std::size_t block = kernels::kL2ChunkBlock;
  const std::size_t wrong = wrong_sink_words(sink, [&](std::size_t word) {
    const std::size_t c = word / block;
    const std::size_t t = word % block;
    std::uint32_t expected = 0;
    for (std::size_t i = 0; i < kernels::kL2PiecesPerChunk; ++i) {
      for (std::size_t half = 0; half < 2; ++half) {
        const uint2 x = host_data[(i * chunks + c) * 2 * block + half * block + t];
        expected ^= x.x ^ x.y;
      }
    }
    return expected;
  });
  EXPECT_EQ(wrong, 0u) << "of " << chunks * block << " threads";
  EXPECT_EQ(l2_chunk_mismatches(args), 0u);

  const std::size_t middle = chunks * block / 2;
  const std::uint32_t flipped = to_host(sink)[middle] ^ 0x100u;
  GPUBENCH_CUDA_CHECK(cudaMemcpy(sink.get() + middle, &flipped, sizeof flipped, cudaMemcpyHostToDevice));
  EXPECT_EQ(l2_chunk_mismatches(args), 1u) << "one wrong sink word is one wrong thread";
}

INSTANTIATE_TEST_SUITE_P(WorkingSets, L2ChunkRead, ::testing::Values(4 * kMiB, 9 * 512 * kKiB));

TEST(SharedRead, EveryThreadSumsItsTileVectorsOncePerRound) {
  GPUBENCH_REQUIRE_GPU();
  constexpr int kGrid = 3;
  constexpr std::uint32_t kRounds = 5;
  const std::size_t threads = static_cast<std::size_t>(kGrid) * kernels::kSharedReadBlock;
  DeviceBuffer<uint4> tile(kernels::kSharedTileVectors);
  DeviceBuffer<std::uint32_t> sink(threads);
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(tile.get(), tile.bytes(), 42, nullptr));
  GPUBENCH_CUDA_CHECK(cudaMemset(sink.get(), 0xFF, sink.bytes()));
  GPUBENCH_CUDA_CHECK(kernels::launch_shared_read({tile.get(), kRounds, sink.get()}, kGrid, nullptr));

  const std::vector<uint4> host_tile = to_host(tile);
  const std::size_t wrong = wrong_sink_words(sink, [&](std::size_t t) {
    std::uint32_t expected = 0;
    for (std::uint32_t round = 0; round < kRounds; ++round) {
      for (int k = 0; k < kernels::kSharedVectorsPerThread; ++k) {
        const uint4 x = host_tile[t % kernels::kSharedReadBlock + static_cast<std::size_t>(k) * kernels::kSharedReadBlock];
        expected += x.x + x.y + x.z + x.w;
      }
    }
    return expected;
  });
  EXPECT_EQ(wrong, 0u) << "of " << threads << " threads";
}

// GB/s of one launch of the L2 read over `working_set_bytes`, after a warm-up launch.
double l2_read_gbps(std::size_t working_set_bytes) {
  const int grid = kernels::l2_read_blocks_per_sm() * device_attribute(cudaDevAttrMultiProcessorCount);
  const std::size_t threads = static_cast<std::size_t>(grid) * kernels::kL2ReadBlock;
  DeviceBuffer<uint4> data(working_set_bytes / kL2LoadBytes);
  DeviceBuffer<std::uint32_t> sink(threads);
  CudaStream stream;
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(data.get(), data.bytes(), 43, stream.get()));
  const kernels::L2ReadArgs args{data.get(), static_cast<std::uint32_t>(data.count()),
                                 l2_loads_per_thread(working_set_bytes, threads, kernels::kL2ReadUnroll), sink.get()};
  GPUBENCH_CUDA_CHECK(kernels::launch_l2_read(args, grid, stream.get()));
  EventTimer timer;
  const double seconds =
      timer.time(stream.get(), [&] { GPUBENCH_CUDA_CHECK(kernels::launch_l2_read(args, grid, stream.get())); });
  return static_cast<double>(l2_bytes_per_launch(threads, args.loads_per_thread)) / seconds / 1e9;
}

TEST(L2ReadBandwidth, AWorkingSetInL2ReadsFasterThanOneEightTimesItsSize) {
  GPUBENCH_REQUIRE_GPU();
  const std::size_t l2 = static_cast<std::size_t>(device_attribute(cudaDevAttrL2CacheSize));
  if (l2 < 4 * kMiB) GTEST_SKIP() << "an L2 of " << l2 << " bytes is too small to hold the 2 MiB working set alone";
  const double in_l2 = l2_read_gbps(2 * kMiB);
  const double past_l2 = l2_read_gbps(8 * l2);
  EXPECT_GT(in_l2, past_l2) << in_l2 << " GB/s from L2, " << past_l2 << " GB/s past it";
  ::testing::Test::RecordProperty("l2_gbps", std::to_string(in_l2));
  ::testing::Test::RecordProperty("past_l2_gbps", std::to_string(past_l2));
}

TEST(SharedReadBandwidth, IsPositiveAndBelowThePeak) {
  GPUBENCH_REQUIRE_GPU();
  const int sms = device_attribute(cudaDevAttrMultiProcessorCount);
  const int clock_khz = device_attribute(cudaDevAttrClockRate);
  const int grid = kernels::shared_read_blocks_per_sm() * sms;
  const std::size_t threads = static_cast<std::size_t>(grid) * kernels::kSharedReadBlock;
  DeviceBuffer<uint4> tile(kernels::kSharedTileVectors);
  DeviceBuffer<std::uint32_t> sink(threads);
  CudaStream stream;
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(tile.get(), tile.bytes(), 44, stream.get()));
  const kernels::SharedReadArgs args{tile.get(), 1024, sink.get()};
  GPUBENCH_CUDA_CHECK(kernels::launch_shared_read(args, grid, stream.get()));
  EventTimer timer;
  const double seconds =
      timer.time(stream.get(), [&] { GPUBENCH_CUDA_CHECK(kernels::launch_shared_read(args, grid, stream.get())); });
  const double gbps = static_cast<double>(threads) * args.rounds * kernels::kSharedVectorsPerThread * 16 / seconds / 1e9;
  const double peak = shared_peak_gbps(sms, clock_khz);
  EXPECT_GT(gbps, 0.0);
  EXPECT_LT(gbps, peak * 1.02) << "measured " << gbps << " GB/s against a peak of " << peak;
  ::testing::Test::RecordProperty("shared_gbps", std::to_string(gbps));
}

}  // namespace
}  // namespace gpubench
