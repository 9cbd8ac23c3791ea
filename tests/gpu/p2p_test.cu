// The p2p family's pieces on real GPUs: the SM copy kernel (locally, and storing into or loading from a
// peer) and the copy engines carry bytes intact at odd sizes and offsets; the pointer chase follows a ring
// once round and back to its start, locally and in a peer's memory, and its result exposes a broken ring.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "benchmarks/common/device_buffer.hpp"
#include "kernels/latency.cuh"
#include "kernels/p2p_copy.cuh"
#include "kernels/random_fill.cuh"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

int gpu_count() {
  int count = 0;
  GPUBENCH_CUDA_CHECK(cudaGetDeviceCount(&count));
  return count;
}

#define REQUIRE_TWO_GPUS()                               \
  do {                                                   \
    GPUBENCH_REQUIRE_GPU();                              \
    if (gpu_count() < 2) GTEST_SKIP() << "needs two GPUs"; \
  } while (false)

// Enables peer access both ways between GPUs 0 and 1; false when the pair cannot have it.
bool enable_peer_access() {
  for (const auto& [device, peer] : {std::pair{0, 1}, std::pair{1, 0}}) {
    int can = 0;
    GPUBENCH_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, device, peer));
    if (can == 0) return false;
    GPUBENCH_CUDA_CHECK(cudaSetDevice(device));
    const cudaError_t status = cudaDeviceEnablePeerAccess(peer, 0);
    if (status == cudaErrorPeerAccessAlreadyEnabled) {
      cudaGetLastError();
    } else {
      GPUBENCH_CUDA_CHECK(status);
    }
  }
  return true;
}

std::vector<unsigned char> download(const void* device, std::size_t bytes) {
  std::vector<unsigned char> out(bytes);
  GPUBENCH_CUDA_CHECK(cudaMemcpy(out.data(), device, bytes, cudaMemcpyDeviceToHost));
  return out;
}

// Random bytes in a buffer on `device`.
DeviceBuffer<unsigned char> random_buffer(int device, std::size_t bytes, std::uint64_t seed) {
  GPUBENCH_CUDA_CHECK(cudaSetDevice(device));
  DeviceBuffer<unsigned char> buffer(bytes);
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(buffer.get(), bytes, seed, nullptr));
  GPUBENCH_CUDA_CHECK(cudaDeviceSynchronize());
  return buffer;
}

// Sizes around the 16-byte vector and the grid, with offsets that keep both pointers aligned, misalign both
// alike, or misalign one only (the byte-by-byte path).
const std::size_t kSizes[] = {1, 15, 16, 17, 4097, (std::size_t{3} << 20) + 13};
const std::pair<std::size_t, std::size_t> kOffsets[] = {{0, 0}, {16, 32}, {3, 3}, {0, 5}};
constexpr std::size_t kSlack = 64;

// Copies `bytes` from source+source_offset to destination+destination_offset with the SM kernel on
// `runner`, and checks that exactly those bytes changed, to the source's values.
void expect_sm_copy(int runner, int source_device, int destination_device) {
  for (const std::size_t bytes : kSizes) {
    for (const auto& [source_offset, destination_offset] : kOffsets) {
      SCOPED_TRACE(std::to_string(bytes) + " bytes, offsets " + std::to_string(source_offset) + "/" +
                   std::to_string(destination_offset));
      const DeviceBuffer<unsigned char> source = random_buffer(source_device, bytes + kSlack, bytes);
      const DeviceBuffer<unsigned char> destination = random_buffer(destination_device, bytes + kSlack, bytes + 1);
      const std::vector<unsigned char> before = download(destination.get(), bytes + kSlack);
      GPUBENCH_CUDA_CHECK(cudaSetDevice(runner));
      kernels::PeerCopyLaunch launch;
      GPUBENCH_CUDA_CHECK(kernels::peer_copy_launch_for_current_device(&launch));
      CudaStream stream;
      GPUBENCH_CUDA_CHECK(kernels::launch_peer_copy(destination.get() + destination_offset, source.get() + source_offset, bytes,
                                                    launch, stream.get()));
      stream.synchronize();
      const std::vector<unsigned char> from = download(source.get(), bytes + kSlack);
      std::vector<unsigned char> expected = before;
      std::copy_n(from.begin() + source_offset, bytes, expected.begin() + destination_offset);
      EXPECT_TRUE(download(destination.get(), bytes + kSlack) == expected);
    }
  }
}

TEST(PeerCopyKernel, CopiesWithinOneGpuByteForByteAtOddSizesAndOffsets) {
  GPUBENCH_REQUIRE_GPU();
  expect_sm_copy(0, 0, 0);
}

TEST(PeerCopyKernel, LaunchFillsTheDevice) {
  GPUBENCH_REQUIRE_GPU();
  GPUBENCH_CUDA_CHECK(cudaSetDevice(0));
  int sms = 0;
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  kernels::PeerCopyLaunch launch;
  GPUBENCH_CUDA_CHECK(kernels::peer_copy_launch_for_current_device(&launch));
  EXPECT_GT(launch.block, 0);
  EXPECT_GE(launch.grid, sms);
  EXPECT_EQ(launch.grid % sms, 0);
}

TEST(PeerCopyKernel, StoresIntoThePeersMemory) {
  REQUIRE_TWO_GPUS();
  if (!enable_peer_access()) GTEST_SKIP() << "GPUs 0 and 1 cannot access each other's memory";
  expect_sm_copy(0, 0, 1);
}

TEST(PeerCopyKernel, LoadsFromThePeersMemory) {
  REQUIRE_TWO_GPUS();
  if (!enable_peer_access()) GTEST_SKIP() << "GPUs 0 and 1 cannot access each other's memory";
  expect_sm_copy(1, 0, 1);
}

TEST(PeerCopyEngine, CarriesBytesBothWaysAtOddSizesAndOffsets) {
  REQUIRE_TWO_GPUS();
  if (!enable_peer_access()) GTEST_SKIP() << "GPUs 0 and 1 cannot access each other's memory";
  for (const auto& [from, to] : {std::pair{0, 1}, std::pair{1, 0}}) {
    for (const std::size_t bytes : kSizes) {
      for (const auto& [source_offset, destination_offset] : kOffsets) {
        SCOPED_TRACE("gpu" + std::to_string(from) + "->gpu" + std::to_string(to) + ", " + std::to_string(bytes) +
                     " bytes, offsets " + std::to_string(source_offset) + "/" + std::to_string(destination_offset));
        const DeviceBuffer<unsigned char> source = random_buffer(from, bytes + kSlack, 3 * bytes);
        const DeviceBuffer<unsigned char> destination = random_buffer(to, bytes + kSlack, 3 * bytes + 1);
        std::vector<unsigned char> expected = download(destination.get(), bytes + kSlack);
        const std::vector<unsigned char> sent = download(source.get(), bytes + kSlack);
        std::copy_n(sent.begin() + source_offset, bytes, expected.begin() + destination_offset);
        GPUBENCH_CUDA_CHECK(cudaSetDevice(from));
        CudaStream stream;
        GPUBENCH_CUDA_CHECK(cudaMemcpyPeerAsync(destination.get() + destination_offset, to, source.get() + source_offset, from,
                                                bytes, stream.get()));
        stream.synchronize();
        EXPECT_TRUE(download(destination.get(), bytes + kSlack) == expected);
      }
    }
  }
}

// A small ring: nodes 64 bytes apart, linked in a random order.
struct SmallRing {
  static constexpr std::size_t kNodes = 1000;
  static constexpr std::size_t kStride = 64;
  std::vector<std::uint32_t> order = std::vector<std::uint32_t>(kNodes);
  DeviceBuffer<unsigned char> memory;

  explicit SmallRing(int device) : memory(random_buffer(device, kNodes * kStride, 17)) {
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), std::mt19937_64(5));
    DeviceBuffer<std::uint32_t> links(kNodes);
    GPUBENCH_CUDA_CHECK(cudaMemcpy(links.get(), order.data(), links.bytes(), cudaMemcpyHostToDevice));
    GPUBENCH_CUDA_CHECK(kernels::build_ring(memory.get(), kStride, links.get(), kNodes, nullptr));
    GPUBENCH_CUDA_CHECK(cudaDeviceSynchronize());
  }
  std::uint64_t offset_of(std::size_t k) const { return std::uint64_t{order[k % kNodes]} * kStride; }
};

// Runs `steps` steps of the chase on `reader` over `ring` and returns what it left.
kernels::ChaseResult chase(int reader, const SmallRing& ring, std::uint64_t steps) {
  GPUBENCH_CUDA_CHECK(cudaSetDevice(reader));
  DeviceBuffer<kernels::ChaseResult> result(1);
  GPUBENCH_CUDA_CHECK(cudaMemset(result.get(), 0xFF, sizeof(kernels::ChaseResult)));
  GPUBENCH_CUDA_CHECK(kernels::launch_pointer_chase(ring.memory.get(), ring.offset_of(0), steps, result.get(), nullptr));
  kernels::ChaseResult got{};
  GPUBENCH_CUDA_CHECK(cudaMemcpy(&got, result.get(), sizeof got, cudaMemcpyDeviceToHost));
  return got;
}

void expect_ring_followed(int reader, const SmallRing& ring) {
  const kernels::ChaseResult lap = chase(reader, ring, SmallRing::kNodes);
  EXPECT_EQ(lap.end, ring.offset_of(0));
  EXPECT_EQ(lap.first_return, SmallRing::kNodes) << "a single cycle through every node comes back only at the end";
  const kernels::ChaseResult part = chase(reader, ring, 321);
  EXPECT_EQ(part.end, ring.offset_of(321));
  EXPECT_EQ(part.first_return, 0u);
  const kernels::ChaseResult laps = chase(reader, ring, 2 * SmallRing::kNodes + 7);
  EXPECT_EQ(laps.end, ring.offset_of(7));
  EXPECT_EQ(laps.first_return, SmallRing::kNodes);
}

TEST(PointerChase, FollowsALocalRingOnceRoundBackToItsStart) {
  GPUBENCH_REQUIRE_GPU();
  GPUBENCH_CUDA_CHECK(cudaSetDevice(0));
  const SmallRing ring(0);
  expect_ring_followed(0, ring);
}

TEST(PointerChase, FollowsARingInThePeersMemory) {
  REQUIRE_TWO_GPUS();
  if (!enable_peer_access()) GTEST_SKIP() << "GPUs 0 and 1 cannot access each other's memory";
  GPUBENCH_CUDA_CHECK(cudaSetDevice(1));
  const SmallRing ring(1);
  expect_ring_followed(0, ring);
}

TEST(PointerChase, ExposesARingThatClosesEarly) {
  GPUBENCH_REQUIRE_GPU();
  GPUBENCH_CUDA_CHECK(cudaSetDevice(0));
  const SmallRing ring(0);
  // Node order[99] now links back to the start: a cycle of 100 nodes, the other 900 never visited.
  const std::uint64_t start = ring.offset_of(0);
  GPUBENCH_CUDA_CHECK(cudaMemcpy(ring.memory.get() + ring.offset_of(99), &start, sizeof start, cudaMemcpyHostToDevice));
  const kernels::ChaseResult lap = chase(0, ring, SmallRing::kNodes);
  EXPECT_EQ(lap.first_return, 100u);
  EXPECT_EQ(lap.end, start);  // 1000 is a multiple of 100: only first_return tells the broken ring apart
}

}  // namespace
}  // namespace gpubench
