// The memory family's kernels on a real GPU: every op's output checked on the host against an independent
// reference on random data, the device verifier shown to catch a flipped element, and the bandwidth shown
// to be positive and below the device's theoretical peak.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/device_peaks.hpp"
#include "benchmarks/common/event_timer.hpp"
#include "kernels/random_fill.cuh"
#include "kernels/stream.cuh"
#include "kernels/verify.cuh"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

using kernels::StreamArgs;
using kernels::StreamLaunch;
using kernels::StreamOp;

// Not a multiple of the grid, so the tail loop runs too.
constexpr std::size_t kCount = 4 * ((std::size_t{1} << 22) + 333);

std::uint32_t bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

float host_expected(StreamOp op, float a, float b, float s) {
  switch (op) {
    case StreamOp::Write: return s;
    case StreamOp::Copy: return a;
    case StreamOp::Scale: return s * a;
    case StreamOp::Add: return a + b;
    case StreamOp::Triad: return std::fma(s, b, a);
    case StreamOp::Read: break;
  }
  return NAN;
}

struct StreamFixture {
  DeviceBuffer<float> a{kCount}, b{kCount}, c{kCount};
  DeviceBuffer<std::uint32_t> sink{std::size_t{1} << 22};
  DeviceBuffer<unsigned long long> mismatches{1};
  CudaStream stream;
  StreamArgs args{a.get(), b.get(), c.get(), sink.get(), sink.count(), kCount, 0.4f};

  StreamFixture() {
    GPUBENCH_CUDA_CHECK(kernels::fill_random(a.get(), kCount, 11, 0.5f, 1.5f, stream.get()));
    GPUBENCH_CUDA_CHECK(kernels::fill_random(b.get(), kCount, 12, 0.5f, 1.5f, stream.get()));
    GPUBENCH_CUDA_CHECK(cudaMemsetAsync(c.get(), 0xFF, c.bytes(), stream.get()));
  }
  unsigned long long count_mismatches(StreamOp op, std::size_t sink_used) {
    GPUBENCH_CUDA_CHECK(cudaMemsetAsync(mismatches.get(), 0, sizeof(unsigned long long), stream.get()));
    GPUBENCH_CUDA_CHECK(kernels::count_stream_mismatches(op, args, sink_used, mismatches.get(), stream.get()));
    unsigned long long wrong = 0;
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(&wrong, mismatches.get(), sizeof wrong, cudaMemcpyDeviceToHost, stream.get()));
    stream.synchronize();
    return wrong;
  }
  std::vector<float> host(const DeviceBuffer<float>& buffer) {
    std::vector<float> out(kCount);
    GPUBENCH_CUDA_CHECK(cudaMemcpy(out.data(), buffer.get(), buffer.bytes(), cudaMemcpyDeviceToHost));
    return out;
  }
};

class StreamKernel : public ::testing::TestWithParam<std::tuple<StreamOp, int, bool, bool>> {};

TEST_P(StreamKernel, OutputMatchesAHostReferenceAndTheVerifierAgrees) {
  GPUBENCH_REQUIRE_GPU();
  const auto [op, unroll, streaming, prefetch] = GetParam();
  StreamFixture f;
  const StreamLaunch launch{256, 264, unroll, streaming, prefetch};
  GPUBENCH_CUDA_CHECK(kernels::launch_stream(op, launch, f.args, f.stream.get()));
  f.stream.synchronize();
  const std::size_t sink_used = static_cast<std::size_t>(launch.grid) * launch.block;
  EXPECT_EQ(f.count_mismatches(op, sink_used), 0u);

  const std::vector<float> a = f.host(f.a);
  if (op == StreamOp::Read) {
    std::vector<std::uint32_t> sink(sink_used);
    GPUBENCH_CUDA_CHECK(cudaMemcpy(sink.data(), f.sink.get(), sink_used * 4, cudaMemcpyDeviceToHost));
    std::uint32_t from_sink = 0, from_data = 0;
    for (std::uint32_t w : sink) from_sink ^= w;
    for (float x : a) from_data ^= bits(x);
    EXPECT_EQ(from_sink, from_data);
    return;
  }
  const std::vector<float> b = f.host(f.b);
  const std::vector<float> c = f.host(f.c);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < kCount; ++i) wrong += bits(c[i]) != bits(host_expected(op, a[i], b[i], f.args.scalar));
  EXPECT_EQ(wrong, 0u) << "of " << kCount;
}

INSTANTIATE_TEST_SUITE_P(AllOps, StreamKernel,
                         ::testing::Combine(::testing::Values(StreamOp::Read, StreamOp::Write, StreamOp::Copy, StreamOp::Scale,
                                                              StreamOp::Add, StreamOp::Triad),
                                            ::testing::Values(1, 4, 8), ::testing::Bool(), ::testing::Bool()),
                         [](const ::testing::TestParamInfo<StreamKernel::ParamType>& info) {
                           return std::string(kernels::stream_op_name(std::get<0>(info.param))) + "_unroll" +
                                  std::to_string(std::get<1>(info.param)) + (std::get<2>(info.param) ? "_cs" : "") +
                                  (std::get<3>(info.param) ? "_prefetch" : "");
                         });

TEST(StreamVerifier, CatchesOneFlippedBitAndUnwrittenOutput) {
  GPUBENCH_REQUIRE_GPU();
  StreamFixture f;
  EXPECT_EQ(f.count_mismatches(StreamOp::Triad, 0), kCount) << "NaN poison counts as wrong everywhere";
  const StreamLaunch launch{512, 132, 4, false};
  GPUBENCH_CUDA_CHECK(kernels::launch_stream(StreamOp::Triad, launch, f.args, f.stream.get()));
  ASSERT_EQ(f.count_mismatches(StreamOp::Triad, 0), 0u);
  float value = 0;
  const std::size_t victim = kCount / 3;
  GPUBENCH_CUDA_CHECK(cudaMemcpy(&value, f.c.get() + victim, 4, cudaMemcpyDeviceToHost));
  std::uint32_t flipped = bits(value) ^ 1u;  // lowest mantissa bit: a value still close to right
  GPUBENCH_CUDA_CHECK(cudaMemcpy(f.c.get() + victim, &flipped, 4, cudaMemcpyHostToDevice));
  EXPECT_EQ(f.count_mismatches(StreamOp::Triad, 0), 1u);
}

TEST(ByteVerifier, CountsDifferingWordsAndTailBytes) {
  GPUBENCH_REQUIRE_GPU();
  const std::size_t bytes = (std::size_t{1} << 20) + 5;
  DeviceBuffer<unsigned char> x(bytes), y(bytes);
  DeviceBuffer<unsigned long long> mismatches(1);
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(x.get(), bytes, 5, nullptr));
  GPUBENCH_CUDA_CHECK(cudaMemcpy(y.get(), x.get(), bytes, cudaMemcpyDeviceToDevice));
  const auto count = [&] {
    GPUBENCH_CUDA_CHECK(cudaMemset(mismatches.get(), 0, 8));
    GPUBENCH_CUDA_CHECK(kernels::count_byte_mismatches(y.get(), x.get(), bytes, mismatches.get(), nullptr));
    unsigned long long wrong = 0;
    GPUBENCH_CUDA_CHECK(cudaMemcpy(&wrong, mismatches.get(), 8, cudaMemcpyDeviceToHost));
    return wrong;
  };
  EXPECT_EQ(count(), 0u);
  const unsigned char junk[2] = {0x5A, 0xA5};
  GPUBENCH_CUDA_CHECK(cudaMemcpy(y.get() + 100, junk, 1, cudaMemcpyHostToDevice));
  GPUBENCH_CUDA_CHECK(cudaMemcpy(y.get() + bytes - 1, junk + 1, 1, cudaMemcpyHostToDevice));
  unsigned char before[2];
  GPUBENCH_CUDA_CHECK(cudaMemcpy(&before[0], x.get() + 100, 1, cudaMemcpyDeviceToHost));
  GPUBENCH_CUDA_CHECK(cudaMemcpy(&before[1], x.get() + bytes - 1, 1, cudaMemcpyDeviceToHost));
  EXPECT_EQ(count(), static_cast<unsigned long long>((before[0] != junk[0]) + (before[1] != junk[1])));
}

TEST(StreamBandwidth, IsPositiveAndBelowTheTheoreticalPeak) {
  GPUBENCH_REQUIRE_GPU();
  const std::size_t count = (std::size_t{1} << 30) / sizeof(float);
  DeviceBuffer<float> a(count), b(count), c(count);
  DeviceBuffer<std::uint32_t> sink(1);
  CudaStream stream;
  GPUBENCH_CUDA_CHECK(kernels::fill_random(a.get(), count, 1, 0.5f, 1.5f, stream.get()));
  GPUBENCH_CUDA_CHECK(kernels::fill_random(b.get(), count, 2, 0.5f, 1.5f, stream.get()));
  const StreamArgs args{a.get(), b.get(), c.get(), sink.get(), 0, count, 0.4f};
  int device = 0, sms = 0;
  GPUBENCH_CUDA_CHECK(cudaGetDevice(&device));
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  StreamLaunch launch{1024, 0, 4, false};
  launch.grid = sms * kernels::stream_blocks_per_sm(StreamOp::Triad, launch);
  GPUBENCH_CUDA_CHECK(kernels::launch_stream(StreamOp::Triad, launch, args, stream.get()));  // warm-up
  EventTimer timer;
  timer.start(stream.get());
  for (int i = 0; i < 10; ++i) GPUBENCH_CUDA_CHECK(kernels::launch_stream(StreamOp::Triad, launch, args, stream.get()));
  timer.stop(stream.get());
  const double gbps = 10.0 * kernels::stream_bytes_moved(StreamOp::Triad, count) / timer.seconds() / 1e9;
  const double peak = memory_peak_gbps(device);
  EXPECT_GT(gbps, 0.0);
  EXPECT_LT(gbps, peak) << "measured " << gbps << " GB/s against a theoretical " << peak;
  ::testing::Test::RecordProperty("triad_gbps", std::to_string(gbps));
}

}  // namespace
}  // namespace gpubench
