// Launch shape: the STREAM triad kernel of the memory family (kernels/stream.cuh, one 16-byte vector per thread
// per pass, plain stores) over block sizes 32 to 1024 and blocks per SM, each shape's bandwidth against the DRAM
// peak, and the best shape's bandwidth over the worst's: how much a poorly chosen launch gives away. Arrays are
// 256 MiB each, far past any L2; inputs are random; the output is verified after the timed launches.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/blocksize/launch_shapes.hpp"
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/device_peaks.hpp"
#include "benchmarks/common/event_timer.hpp"
#include "benchmarks/common/family_registration.hpp"
#include "benchmarks/common/mismatch_counter.hpp"
#include "benchmarks/common/registry.hpp"
#include "benchmarks/common/reporting.hpp"
#include "benchmarks/common/significant_digits.hpp"
#include "benchmarks/common/throughput.hpp"
#include "benchmarks/common/timed_loop.hpp"
#include "benchmarks/common/transfer_sizes.hpp"
#include "kernels/random_fill.cuh"
#include "kernels/stream.cuh"

namespace gpubench {
namespace {

using kernels::StreamArgs;
using kernels::StreamLaunch;
using kernels::StreamOp;

constexpr std::size_t kArrayBytes = 256 * kMiB;
constexpr std::size_t kCount = kArrayBytes / sizeof(float);

// Random inputs a and b, and an output c poisoned with NaN so that an element no launch wrote fails the check.
struct TriadArrays {
  explicit TriadArrays(cudaStream_t stream) {
    GPUBENCH_CUDA_CHECK(kernels::fill_random(a.get(), kCount, 31, 0.5f, 1.5f, stream));
    GPUBENCH_CUDA_CHECK(kernels::fill_random(b.get(), kCount, 32, 0.5f, 1.5f, stream));
    poison_output(stream);
  }
  void poison_output(cudaStream_t stream) const {
    GPUBENCH_CUDA_CHECK(cudaMemsetAsync(c.get(), 0xFF, c.bytes(), stream));
  }
  StreamArgs args() const { return StreamArgs{a.get(), b.get(), c.get(), nullptr, 0, kCount, 0.4f}; }

  DeviceBuffer<float> a{kCount}, b{kCount}, c{kCount};
};

StreamLaunch launch_of(const LaunchShape& shape, int device) {
  int sm_count = 0;
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  StreamLaunch launch{shape.block, 0, 1, false, false};
  const int resident = kernels::stream_blocks_per_sm(StreamOp::Triad, launch);
  if (resident == 0) throw std::runtime_error("the triad kernel cannot launch blocks of " + std::to_string(shape.block));
  launch.grid = grid_of(shape, sm_count, resident);
  return launch;
}

double time_triad(const StreamLaunch& launch, const StreamArgs& args, EventTimer& timer, cudaStream_t stream) {
  return timer.time(stream, [&] { GPUBENCH_CUDA_CHECK(kernels::launch_stream(StreamOp::Triad, launch, args, stream)); });
}

// True when c holds the triad of a and b; otherwise fails the benchmark with the reason.
bool output_is_right(benchmark::State& state, const StreamArgs& args, cudaStream_t stream) {
  const unsigned long long wrong = MismatchCounter().count(stream, [&](unsigned long long* counter) {
    GPUBENCH_CUDA_CHECK(kernels::count_stream_mismatches(StreamOp::Triad, args, 0, counter, stream));
  });
  if (wrong == 0) return true;
  fail_benchmark(state, FailureKind::WrongResult, "verification failed: " + std::to_string(wrong) +
                                                      " wrong output elements of " + std::to_string(kCount) + " after triad");
  return false;
}

double bytes_per_launch() { return static_cast<double>(kernels::stream_bytes_moved(StreamOp::Triad, kCount)); }

void run_shape(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
               const LaunchShape& shape) {
  CudaStream stream;
  const TriadArrays arrays(stream.get());
  const StreamArgs args = arrays.args();
  const StreamLaunch launch = launch_of(shape, device.index);
  EventTimer timer;
  time_triad(launch, args, timer, stream.get());  // warm-up
  arrays.poison_output(stream.get());
  const double timed_seconds =
      total_seconds_of_iterations(state, [&] { return time_triad(launch, args, timer, stream.get()); });
  report_clocks(state, context, device);
  if (!output_is_right(state, args, stream.get())) return;

  FigureLabel label{"bandwidth", "GB/s", Better::Higher, device.index, {}};
  label.params["array_bytes"] = std::to_string(kArrayBytes);
  label.params["bytes_per_launch"] = std::to_string(kernels::stream_bytes_moved(StreamOp::Triad, kCount));
  label.params["grid"] = std::to_string(launch.grid);
  label.params["resident_blocks_per_sm"] =
      std::to_string(kernels::stream_blocks_per_sm(StreamOp::Triad, launch));
  report_figure(state, gigabytes_per_second(bytes_per_launch(), state.iterations(), timed_seconds),
                memory_peak_gbps(device.index), label);
}

// Every shape of the suite, one launch each, in every iteration, so the ratio compares launches made under the same
// conditions; the iteration time is their sum, so the benchmark's running time stays bounded.
void run_best_over_worst(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device) {
  CudaStream stream;
  const TriadArrays arrays(stream.get());
  const StreamArgs args = arrays.args();
  const std::vector<LaunchShape> shapes = launch_shapes(context.suite);
  std::vector<StreamLaunch> launches;
  for (const LaunchShape& shape : shapes) launches.push_back(launch_of(shape, device.index));
  EventTimer timer;
  for (const StreamLaunch& launch : launches) time_triad(launch, args, timer, stream.get());  // warm-up
  arrays.poison_output(stream.get());
  std::vector<double> seconds(launches.size(), 0.0);
  run_timed_iterations(state, [&] {
    double all = 0;
    for (std::size_t i = 0; i < launches.size(); ++i) {
      const double one = time_triad(launches[i], args, timer, stream.get());
      seconds[i] += one;
      all += one;
    }
    return all;
  });
  report_clocks(state, context, device);
  if (!output_is_right(state, args, stream.get())) return;

  std::vector<double> bandwidths;
  for (double s : seconds) bandwidths.push_back(gigabytes_per_second(bytes_per_launch(), state.iterations(), s));
  const BestAndWorst extremes = best_and_worst(bandwidths);
  FigureLabel label{"ratio", "x", Better::Higher, device.index, {}};
  label.params["ratio"] = "triad bandwidth of the best launch shape over the worst's";
  label.params["shapes"] = std::to_string(shapes.size());
  label.params["best"] = shape_name(shapes[extremes.best]) + " " + significant_digits(bandwidths[extremes.best], 4) + " GB/s";
  label.params["worst"] =
      shape_name(shapes[extremes.worst]) + " " + significant_digits(bandwidths[extremes.worst], 4) + " GB/s";
  label.params["array_bytes"] = std::to_string(kArrayBytes);
  report_figure(state, extremes.ratio, std::nullopt, label);
}

void register_blocksize_benchmarks(const BenchmarkContext& context) {
  const std::string size = size_name(kArrayBytes);
  for (const LaunchShape& shape : launch_shapes(context.suite)) {
    register_per_device(context, "blocksize/triad/" + shape_name(shape) + "/" + size,
                        [&context, shape](benchmark::State& state, const BenchmarkDevice& device) {
                          run_shape(state, context, device, shape);
                        });
  }
  register_per_device(context, "blocksize/best_over_worst/" + size,
                      [&context](benchmark::State& state, const BenchmarkDevice& device) {
                        run_best_over_worst(state, context, device);
                      });
}

}  // namespace

GPUBENCH_FAMILY("blocksize", register_blocksize_benchmarks);

}  // namespace gpubench
