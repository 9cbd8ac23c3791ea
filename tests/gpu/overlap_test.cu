// The overlap family's kernel on a real GPU: every word of its output checked against the host's reference on
// random input, at a count that is no multiple of the grid, and its running time shown to grow with its rounds
// (what the family's calibration relies on); a copy shown to overlap a kernel from pinned memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "benchmarks/common/copy_job.hpp"
#include "benchmarks/common/cuda_event.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/event_timer.hpp"
#include "benchmarks/common/host_buffer_pool.hpp"
#include "benchmarks/overlap/compute_calibration.hpp"
#include "kernels/hash_rounds.cuh"
#include "kernels/random_fill.cuh"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

constexpr std::size_t kWords = (std::size_t{1} << 24) + 333;  // past the launch's grid, so threads loop

std::vector<std::uint32_t> to_host(const DeviceBuffer<std::uint32_t>& buffer) {
  std::vector<std::uint32_t> out(buffer.count());
  GPUBENCH_CUDA_CHECK(cudaMemcpy(out.data(), buffer.get(), buffer.bytes(), cudaMemcpyDeviceToHost));
  return out;
}

TEST(HashRounds, EveryWordMatchesTheHostReference) {
  GPUBENCH_REQUIRE_GPU();
  DeviceBuffer<std::uint32_t> input(kWords), output(kWords);
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(input.get(), input.bytes(), 17, nullptr));
  for (const std::uint32_t rounds : {0u, 1u, 37u}) {
    SCOPED_TRACE(std::to_string(rounds) + " rounds");
    GPUBENCH_CUDA_CHECK(cudaMemset(output.get(), 0xFF, output.bytes()));
    GPUBENCH_CUDA_CHECK(kernels::launch_hash_rounds(input.get(), output.get(), kWords, rounds, nullptr));
    const std::vector<std::uint32_t> in = to_host(input);
    const std::vector<std::uint32_t> out = to_host(output);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < kWords; ++i) wrong += out[i] != kernels::hash_rounds(in[i], rounds);
    EXPECT_EQ(wrong, 0u) << "of " << kWords;
  }
  EXPECT_NE(kernels::hash_rounds(1, 2), kernels::hash_rounds(1, 3)) << "the rounds count";
}

TEST(HashRounds, TakesLongerWithMoreRoundsAsTheCalibrationAssumes) {
  GPUBENCH_REQUIRE_GPU();
  const std::size_t words = std::size_t{1} << 20;
  DeviceBuffer<std::uint32_t> input(words), output(words);
  CudaStream stream;
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(input.get(), input.bytes(), 3, stream.get()));
  EventTimer timer;
  const auto time = [&](std::uint32_t rounds) {
    double fastest = 1e9;
    for (int trial = 0; trial < 3; ++trial) {
      fastest = std::min(fastest, timer.time(stream.get(), [&] {
        GPUBENCH_CUDA_CHECK(kernels::launch_hash_rounds(input.get(), output.get(), words, rounds, stream.get()));
      }));
    }
    return fastest;
  };
  const double probe = time(1024);
  const std::uint32_t rounds = rounds_lasting(8 * probe, 1024, probe);
  EXPECT_EQ(rounds, 8192u);
  const double scaled = time(rounds);
  EXPECT_GT(scaled, 4 * probe) << "probe " << probe << " s, 8x the rounds " << scaled << " s";
  EXPECT_LT(scaled, 16 * probe) << "probe " << probe << " s, 8x the rounds " << scaled << " s";
}

TEST(Overlap, APinnedCopyRunsWhileAKernelDoes) {
  GPUBENCH_REQUIRE_GPU();
  HostBufferPool pool;
  CudaStream compute_stream, copy_stream;
  const std::size_t bytes = std::size_t{64} << 20;
  const CopyJob copy(pool, Direction::HostToDevice, bytes, HostMemory::Pinned, -1, 5, copy_stream.get());
  const std::size_t words = std::size_t{1} << 20;
  DeviceBuffer<std::uint32_t> input(words), output(words);
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(input.get(), input.bytes(), 9, compute_stream.get()));
  compute_stream.synchronize();
  CudaEvent start, kernel_done, copy_done;
  start.record(compute_stream.get());
  GPUBENCH_CUDA_CHECK(cudaStreamWaitEvent(copy_stream.get(), start.get(), 0));
  GPUBENCH_CUDA_CHECK(kernels::launch_hash_rounds(input.get(), output.get(), words, 200000, compute_stream.get()));
  copy.enqueue(copy_stream.get());
  kernel_done.record(compute_stream.get());
  copy_done.record(copy_stream.get());
  const double kernel_seconds = kernel_done.seconds_since(start);
  const double copy_seconds = copy_done.seconds_since(start);
  EXPECT_LT(copy_seconds, kernel_seconds) << "the copy finished before the long kernel, so it did not wait for it";
  EXPECT_EQ(copy.count_mismatches(copy_stream.get()), 0u);
}

}  // namespace
}  // namespace gpubench
