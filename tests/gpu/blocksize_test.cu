// The blocksize family's launches on a real GPU: the triad kernel launched in the smallest and largest shapes
// writes what a host reference computes from random data, and a full SM of 1024-thread blocks outruns one
// 32-thread block per SM.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "benchmarks/blocksize/launch_shapes.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/event_timer.hpp"
#include "kernels/random_fill.cuh"
#include "kernels/stream.cuh"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

using kernels::StreamArgs;
using kernels::StreamLaunch;
using kernels::StreamOp;

constexpr std::size_t kCount = 4 * ((std::size_t{1} << 22) + 77);  // not a multiple of any grid

std::uint32_t bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

StreamLaunch launch_of(const LaunchShape& shape) {
  int device = 0, sms = 0;
  GPUBENCH_CUDA_CHECK(cudaGetDevice(&device));
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  StreamLaunch launch{shape.block, 0, 1, false, false};
  launch.grid = grid_of(shape, sms, kernels::stream_blocks_per_sm(StreamOp::Triad, launch));
  return launch;
}

struct TriadFixture {
  DeviceBuffer<float> a{kCount}, b{kCount}, c{kCount};
  CudaStream stream;
  StreamArgs args{a.get(), b.get(), c.get(), nullptr, 0, kCount, 0.4f};

  TriadFixture() {
    GPUBENCH_CUDA_CHECK(kernels::fill_random(a.get(), kCount, 51, 0.5f, 1.5f, stream.get()));
    GPUBENCH_CUDA_CHECK(kernels::fill_random(b.get(), kCount, 52, 0.5f, 1.5f, stream.get()));
  }
  std::vector<float> host(const DeviceBuffer<float>& buffer) {
    std::vector<float> out(kCount);
    GPUBENCH_CUDA_CHECK(cudaMemcpy(out.data(), buffer.get(), buffer.bytes(), cudaMemcpyDeviceToHost));
    return out;
  }
  double seconds(const StreamLaunch& launch) {
    GPUBENCH_CUDA_CHECK(kernels::launch_stream(StreamOp::Triad, launch, args, stream.get()));  // warm-up
    EventTimer timer;
    return timer.time(stream.get(),
                      [&] { GPUBENCH_CUDA_CHECK(kernels::launch_stream(StreamOp::Triad, launch, args, stream.get())); });
  }
};

class BlocksizeShape : public ::testing::TestWithParam<LaunchShape> {};

TEST_P(BlocksizeShape, TriadOutputMatchesAHostReference) {
  GPUBENCH_REQUIRE_GPU();
  TriadFixture f;
  GPUBENCH_CUDA_CHECK(cudaMemset(f.c.get(), 0xFF, f.c.bytes()));
  GPUBENCH_CUDA_CHECK(kernels::launch_stream(StreamOp::Triad, launch_of(GetParam()), f.args, f.stream.get()));
  f.stream.synchronize();
  const std::vector<float> a = f.host(f.a), b = f.host(f.b), c = f.host(f.c);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < kCount; ++i) wrong += bits(c[i]) != bits(std::fma(f.args.scalar, b[i], a[i]));
  EXPECT_EQ(wrong, 0u) << "of " << kCount << " in " << shape_name(GetParam());
}

INSTANTIATE_TEST_SUITE_P(QuickShapes, BlocksizeShape, ::testing::ValuesIn(launch_shapes(Suite::Quick)),
                         [](const ::testing::TestParamInfo<LaunchShape>& info) {
                           std::string name = shape_name(info.param);
                           for (char& ch : name) {
                             if (ch == '/') ch = '_';
                           }
                           return name;
                         });

TEST(BlocksizeBandwidth, AFullSmOfLargeBlocksOutrunsOneWarpPerSm) {
  GPUBENCH_REQUIRE_GPU();
  TriadFixture f;
  const double worst = f.seconds(launch_of({32, 1}));
  const double best = f.seconds(launch_of({1024, 0}));
  EXPECT_GT(worst, best) << "one 32-thread block per SM " << worst << " s, full SMs of 1024 " << best << " s";
  ::testing::Test::RecordProperty("best_over_worst", std::to_string(best_and_worst({1 / worst, 1 / best}).ratio));
}

}  // namespace
}  // namespace gpubench
