// The launch and sync families' kernels on a real GPU: the device counter equals the number of plain and graph
// launches; capturing a graph runs nothing and replaying it twice counts twice; the flag kernel's store reaches
// mapped host memory; the light and heavy stencils agree bit for bit with each other and with a host reference
// on random data of sizes that are not multiples of a block; and the hash chain comes out the same whichever
// way the host synchronises, and differs when launches run out of order.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "benchmarks/common/cuda_graph.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "kernels/launch.cuh"
#include "kernels/random_fill.cuh"
#include "kernels/sync.cuh"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

using kernels::SyncVariant;

template <class T>
T read_back(const DeviceBuffer<T>& buffer, const CudaStream& stream) {
  T value{};
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(&value, buffer.get(), sizeof value, cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  return value;
}

DeviceBuffer<unsigned long long> zeroed_counter(const CudaStream& stream) {
  DeviceBuffer<unsigned long long> counter(1);
  GPUBENCH_CUDA_CHECK(cudaMemsetAsync(counter.get(), 0, counter.bytes(), stream.get()));
  return counter;
}

TEST(LaunchCounter, EqualsTheNumberOfPlainLaunches) {
  GPUBENCH_REQUIRE_GPU();
  CudaStream stream;
  const DeviceBuffer<unsigned long long> counter = zeroed_counter(stream);
  for (int i = 0; i < 1000; ++i) GPUBENCH_CUDA_CHECK(kernels::launch_increment(counter.get(), stream.get()));
  stream.synchronize();
  EXPECT_EQ(read_back(counter, stream), 1000u) << "one synchronisation at the end";
  for (int i = 0; i < 100; ++i) {
    GPUBENCH_CUDA_CHECK(kernels::launch_increment(counter.get(), stream.get()));
    stream.synchronize();
  }
  EXPECT_EQ(read_back(counter, stream), 1100u) << "a synchronisation after each";
}

TEST(LaunchGraph, CaptureRunsNothingAndEachReplayAddsN) {
  GPUBENCH_REQUIRE_GPU();
  constexpr int kKernels = 1000;
  CudaStream stream;
  const DeviceBuffer<unsigned long long> counter = zeroed_counter(stream);
  const CudaGraph graph = CudaGraph::capture(stream.get(), [&] {
    for (int i = 0; i < kKernels; ++i) GPUBENCH_CUDA_CHECK(kernels::launch_increment(counter.get(), stream.get()));
  });
  EXPECT_EQ(read_back(counter, stream), 0u) << "captured launches must not run";
  const CudaGraphExec exec(graph);
  exec.launch(stream.get());
  EXPECT_EQ(read_back(counter, stream), static_cast<unsigned long long>(kKernels));
  exec.launch(stream.get());
  EXPECT_EQ(read_back(counter, stream), 2ull * kKernels);
}

TEST(LaunchGraph, AFailedCaptureLeavesTheStreamUsable) {
  GPUBENCH_REQUIRE_GPU();
  CudaStream stream;
  const DeviceBuffer<unsigned long long> counter = zeroed_counter(stream);
  EXPECT_THROW(CudaGraph::capture(stream.get(), [] { throw std::runtime_error("enqueue failed"); }), std::runtime_error);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
  GPUBENCH_CUDA_CHECK(cudaStreamIsCapturing(stream.get(), &status));
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
  GPUBENCH_CUDA_CHECK(kernels::launch_increment(counter.get(), stream.get()));
  EXPECT_EQ(read_back(counter, stream), 1u);
}

TEST(LaunchFlag, TheKernelsStoreReachesMappedHostMemory) {
  GPUBENCH_REQUIRE_GPU();
  void* host = nullptr;
  GPUBENCH_CUDA_CHECK(cudaHostAlloc(&host, sizeof(std::uint32_t), cudaHostAllocMapped));
  auto* flag = static_cast<std::uint32_t*>(host);
  *flag = 0;
  void* device = nullptr;
  CudaStream stream;
  GPUBENCH_CUDA_CHECK(cudaHostGetDevicePointer(&device, host, 0));
  GPUBENCH_CUDA_CHECK(kernels::launch_write_flag(static_cast<std::uint32_t*>(device), 0xC0FFEEu, stream.get()));
  stream.synchronize();
  EXPECT_EQ(*static_cast<volatile std::uint32_t*>(flag), 0xC0FFEEu);
  GPUBENCH_CUDA_CHECK(cudaFreeHost(host));
}

std::uint32_t bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// An independent reference: kSmoothSteps whole-array passes, zero beyond both ends.
std::vector<float> host_smooth(std::vector<float> values) {
  const std::size_t n = values.size();
  std::vector<float> next(n);
  for (int step = 0; step < kernels::kSmoothSteps; ++step) {
    for (std::size_t i = 0; i < n; ++i) {
      const float left = i > 0 ? values[i - 1] : 0.0f;
      const float right = i + 1 < n ? values[i + 1] : 0.0f;
      next[i] = 0.25f * ((left + right) + (values[i] + values[i]));
    }
    values.swap(next);
  }
  return values;
}

class SmoothKernels : public ::testing::TestWithParam<std::size_t> {};

TEST_P(SmoothKernels, HeavyAndLightAgreeBitForBitWithAHostReference) {
  GPUBENCH_REQUIRE_GPU();
  const std::size_t count = GetParam();
  CudaStream stream;
  DeviceBuffer<float> input(count), light(count), heavy(count);
  GPUBENCH_CUDA_CHECK(kernels::fill_random(input.get(), count, 21, -1.0f, 1.0f, stream.get()));
  GPUBENCH_CUDA_CHECK(cudaMemsetAsync(light.get(), 0xFF, light.bytes(), stream.get()));  // NaN: unwritten = wrong
  GPUBENCH_CUDA_CHECK(cudaMemsetAsync(heavy.get(), 0xFF, heavy.bytes(), stream.get()));
  GPUBENCH_CUDA_CHECK(kernels::launch_smooth(SyncVariant::Light, input.get(), light.get(), count, stream.get()));
  GPUBENCH_CUDA_CHECK(kernels::launch_smooth(SyncVariant::Heavy, input.get(), heavy.get(), count, stream.get()));
  const auto host = [&](const DeviceBuffer<float>& buffer) {
    std::vector<float> out(count);
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(out.data(), buffer.get(), buffer.bytes(), cudaMemcpyDeviceToHost, stream.get()));
    stream.synchronize();
    return out;
  };
  const std::vector<float> in = host(input);
  const std::vector<float> want = host_smooth(in);
  const std::vector<float> got_light = host(light);
  const std::vector<float> got_heavy = host(heavy);
  std::size_t heavy_vs_light = 0;
  std::size_t light_wrong = 0;
  std::size_t heavy_wrong = 0;
  for (std::size_t i = 0; i < count; ++i) {
    heavy_vs_light += bits(got_heavy[i]) != bits(got_light[i]);
    light_wrong += bits(got_light[i]) != bits(want[i]);
    heavy_wrong += bits(got_heavy[i]) != bits(want[i]);
  }
  EXPECT_EQ(heavy_vs_light, 0u) << "of " << count;
  EXPECT_EQ(light_wrong, 0u) << "of " << count;
  EXPECT_EQ(heavy_wrong, 0u) << "of " << count;
  std::size_t unchanged = 0;
  for (std::size_t i = 0; i < count; ++i) unchanged += bits(got_light[i]) == bits(in[i]);
  EXPECT_LT(unchanged, count / 100 + 1) << "the stencil must actually change the data";
}

// Smaller than one block's outputs, exactly one and just past one (240 = 256 - 2 * 8), and large sizes that
// are multiples of neither the block nor its outputs.
INSTANTIATE_TEST_SUITE_P(Sizes, SmoothKernels,
                         ::testing::Values(std::size_t{7}, std::size_t{240}, std::size_t{241}, std::size_t{1000003},
                                           (std::size_t{1} << 22) + 17));

enum class HostWait { DeviceEach, EventEach, StreamEnd };

std::uint64_t run_chain(HostWait wait, std::uint64_t initial, const std::vector<std::uint64_t>& steps) {
  CudaStream stream;
  DeviceBuffer<std::uint64_t> state(1);
  cudaEvent_t done = nullptr;
  GPUBENCH_CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(state.get(), &initial, sizeof initial, cudaMemcpyHostToDevice, stream.get()));
  for (std::uint64_t step : steps) {
    GPUBENCH_CUDA_CHECK(kernels::launch_chain_step(state.get(), step, stream.get()));
    if (wait == HostWait::DeviceEach) GPUBENCH_CUDA_CHECK(cudaDeviceSynchronize());
    if (wait == HostWait::EventEach) {
      GPUBENCH_CUDA_CHECK(cudaEventRecord(done, stream.get()));
      GPUBENCH_CUDA_CHECK(cudaEventSynchronize(done));
    }
  }
  const std::uint64_t result = read_back(state, stream);
  GPUBENCH_CUDA_CHECK(cudaEventDestroy(done));
  return result;
}

TEST(SyncChain, IsTheSameWhicheverWayTheHostWaitsAndMatchesTheHost) {
  GPUBENCH_REQUIRE_GPU();
  const std::uint64_t initial = kernels::mix64(99);
  std::vector<std::uint64_t> steps(1000);
  for (std::size_t i = 0; i < steps.size(); ++i) steps[i] = i;
  std::uint64_t expected = initial;
  for (std::uint64_t step : steps) expected = kernels::mix64(expected ^ step);
  EXPECT_EQ(run_chain(HostWait::DeviceEach, initial, steps), expected);
  EXPECT_EQ(run_chain(HostWait::EventEach, initial, steps), expected);
  EXPECT_EQ(run_chain(HostWait::StreamEnd, initial, steps), expected);
}

TEST(SyncChain, DetectsLaunchesRunOutOfOrder) {
  GPUBENCH_REQUIRE_GPU();
  const std::uint64_t initial = kernels::mix64(99);
  EXPECT_NE(run_chain(HostWait::StreamEnd, initial, {0, 1, 2}), run_chain(HostWait::StreamEnd, initial, {0, 2, 1}));
}

}  // namespace
}  // namespace gpubench
