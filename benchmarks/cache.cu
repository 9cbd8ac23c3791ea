// L2 and shared-memory bandwidth. The L2 sweep reads working sets from a few KiB to several times the L2 size
// with 16-byte loads that bypass L1, so the cliff where L2 stops holding the working set shows; the L2 size the
// device reports goes with every figure. The chunked L2 read measures working sets well inside L2 the way the
// public measurement it is compared with does (kernels/l2_chunk_read.cuh). The shared-memory kernel reads a tile
// of each block's shared memory with conflict-free 16-byte loads, reported for the whole GPU and per SM. Inputs
// are random; every sink is checked after the timed launches. What each figure is compared with: benchmarks/cache/cache_peaks.hpp.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/cache/cache_peaks.hpp"
#include "benchmarks/cache/l2_chunk_layout.hpp"
#include "benchmarks/cache/shared_read_arithmetic.hpp"
#include "benchmarks/cache/working_sets.hpp"
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/event_timer.hpp"
#include "benchmarks/common/family_registration.hpp"
#include "benchmarks/common/mismatch_counter.hpp"
#include "benchmarks/common/registry.hpp"
#include "benchmarks/common/reporting.hpp"
#include "benchmarks/common/significant_digits.hpp"
#include "benchmarks/common/throughput.hpp"
#include "benchmarks/common/timed_loop.hpp"
#include "benchmarks/common/transfer_sizes.hpp"
#include "kernels/l2_chunk_read.cuh"
#include "kernels/l2_read.cuh"
#include "kernels/random_fill.cuh"
#include "kernels/shared_read.cuh"

namespace gpubench {
namespace {

int device_attribute(cudaDeviceAttr attribute, int device) {
  int value = 0;
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
  return value;
}

// A grid of as many blocks as fit on every SM at once: one wave, every SM busy until the end.
int one_wave(int blocks_per_sm, int device, const char* kernel) {
  if (blocks_per_sm == 0) throw std::runtime_error(std::string("the ") + kernel + " kernel cannot launch on this device");
  return blocks_per_sm * device_attribute(cudaDevAttrMultiProcessorCount, device);
}

// The end of either L2 read: fails the benchmark when `wrong` of the `threads` sink words differ, or else reports
// the bandwidth against the public L2 measurement for the GPU, with where the working set lies against L2.
void report_l2_read(benchmark::State& state, const BenchmarkDevice& device, std::size_t working_set_bytes,
                    unsigned long long wrong, std::size_t threads, std::size_t bytes_per_launch, const std::string& launch,
                    double timed_seconds) {
  if (wrong != 0) {
    fail_benchmark(state, FailureKind::WrongResult,
                   "verification failed: " + std::to_string(wrong) + " of " + std::to_string(threads) +
                       " threads' XOR of what they loaded differs from the working set's");
    return;
  }
  const std::size_t l2_bytes = static_cast<std::size_t>(device_attribute(cudaDevAttrL2CacheSize, device.index));
  cudaDeviceProp props{};
  GPUBENCH_CUDA_CHECK(cudaGetDeviceProperties(&props, device.index));
  const L2Reference reference = l2_reference(props.name);
  FigureLabel label{"bandwidth", "GB/s", Better::Higher, device.index, {}};
  label.params["working_set_bytes"] = std::to_string(working_set_bytes);
  label.params["l2_bytes"] = std::to_string(l2_bytes);
  label.params["fits_in_l2"] = fits_in_l2(working_set_bytes, l2_bytes) ? "yes" : "no";
  label.params["working_set_over_l2"] = significant_digits(static_cast<double>(working_set_bytes) / l2_bytes, 3);
  label.params["bytes_per_launch"] = std::to_string(bytes_per_launch);
  label.params["launch"] = launch;
  label.params["reference"] = reference.source;
  report_figure(state, gigabytes_per_second(static_cast<double>(bytes_per_launch), state.iterations(), timed_seconds),
                reference.gbps, label);
}

void run_l2_read(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                 std::size_t working_set_bytes) {
  const int grid = one_wave(kernels::l2_read_blocks_per_sm(), device.index, "L2 read");
  const std::size_t threads = static_cast<std::size_t>(grid) * kernels::kL2ReadBlock;
  DeviceBuffer<uint4> data(working_set_bytes / kL2LoadBytes);
  DeviceBuffer<std::uint32_t> sink(threads);
  CudaStream stream;
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(data.get(), data.bytes(), 21, stream.get()));
  const kernels::L2ReadArgs args{data.get(), static_cast<std::uint32_t>(data.count()),
                                 l2_loads_per_thread(working_set_bytes, threads, kernels::kL2ReadUnroll), sink.get()};
  GPUBENCH_CUDA_CHECK(kernels::launch_l2_read(args, grid, stream.get()));  // warm-up: brings the working set into L2
  GPUBENCH_CUDA_CHECK(cudaMemsetAsync(sink.get(), 0xFF, sink.bytes(), stream.get()));
  EventTimer timer;
  const double timed_seconds = total_seconds_of_iterations(state, [&] {
    return timer.time(stream.get(), [&] { GPUBENCH_CUDA_CHECK(kernels::launch_l2_read(args, grid, stream.get())); });
  });
  report_clocks(state, context, device);

  const unsigned long long wrong = MismatchCounter().count(stream.get(), [&](unsigned long long* counter) {
    GPUBENCH_CUDA_CHECK(kernels::count_l2_read_mismatches(args, grid, counter, stream.get()));
  });
  report_l2_read(state, device, working_set_bytes, wrong, threads, l2_bytes_per_launch(threads, args.loads_per_thread),
                 "grid" + std::to_string(grid) + "xblock" + std::to_string(kernels::kL2ReadBlock) + "xunroll" +
                     std::to_string(kernels::kL2ReadUnroll) + " ld.global.cg.v4",
                 timed_seconds);
}

static_assert(kernels::kL2ChunkWords * kL2ChunkLoadBytes == kL2ChunkBytes, "the host's chunk is the kernel's");

void run_l2_chunk_read(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                       std::size_t working_set_bytes) {
  const std::optional<L2ChunkLayout> layout = l2_chunk_layout(working_set_bytes);
  if (!layout) {
    throw std::runtime_error("no chunked L2 read layout for a working set of " + std::to_string(working_set_bytes) +
                             " bytes");
  }
  DeviceBuffer<uint2> data(working_set_bytes / kL2ChunkLoadBytes);
  DeviceBuffer<std::uint32_t> sink(static_cast<std::size_t>(layout->chunks) * kernels::kL2ChunkBlock);
  CudaStream stream;
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(data.get(), data.bytes(), 21, stream.get()));
  const kernels::L2ChunkReadArgs args{data.get(), layout->chunks, sink.get()};
  const auto launch = [&] { GPUBENCH_CUDA_CHECK(kernels::launch_l2_chunk_read(args, layout->blocks, stream.get())); };
  launch();  // warm-up: brings the working set into L2
  GPUBENCH_CUDA_CHECK(cudaMemsetAsync(sink.get(), 0xFF, sink.bytes(), stream.get()));
  EventTimer timer;
  const double timed_seconds =
      total_seconds_of_iterations(state, [&] { return timer.time(stream.get(), launch); });
  report_clocks(state, context, device);

  const unsigned long long wrong = MismatchCounter().count(stream.get(), [&](unsigned long long* counter) {
    GPUBENCH_CUDA_CHECK(kernels::count_l2_chunk_read_mismatches(args, counter, stream.get()));
  });
  report_l2_read(state, device, working_set_bytes, wrong, sink.count(), layout->bytes_per_launch,
                 "grid" + std::to_string(layout->blocks) + "xblock" + std::to_string(kernels::kL2ChunkBlock) + ", " +
                     std::to_string(layout->chunks) + " chunks of " + std::to_string(kL2ChunkBytes) +
                     " bytes, ld.global.v2",
                 timed_seconds);
}

enum class SharedFigure { Total, PerSm };

void run_shared_read(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                     SharedFigure figure) {
  const int sm_count = device_attribute(cudaDevAttrMultiProcessorCount, device.index);
  const int sm_clock_khz = device_attribute(cudaDevAttrClockRate, device.index);
  const int grid = one_wave(kernels::shared_read_blocks_per_sm(), device.index, "shared-memory read");
  const std::size_t threads = static_cast<std::size_t>(grid) * kernels::kSharedReadBlock;
  DeviceBuffer<uint4> tile(kernels::kSharedTileVectors);
  DeviceBuffer<std::uint32_t> sink(threads);
  CudaStream stream;
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(tile.get(), tile.bytes(), 22, stream.get()));
  const kernels::SharedReadArgs args{tile.get(), kSharedReadRounds, sink.get()};
  GPUBENCH_CUDA_CHECK(kernels::launch_shared_read(args, grid, stream.get()));  // warm-up
  GPUBENCH_CUDA_CHECK(cudaMemsetAsync(sink.get(), 0xFF, sink.bytes(), stream.get()));
  EventTimer timer;
  const double timed_seconds = total_seconds_of_iterations(state, [&] {
    return timer.time(stream.get(), [&] { GPUBENCH_CUDA_CHECK(kernels::launch_shared_read(args, grid, stream.get())); });
  });
  report_clocks(state, context, device);

  std::vector<std::uint32_t> tile_words(tile.bytes() / sizeof(std::uint32_t));
  std::vector<std::uint32_t> sink_words(threads);
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(tile_words.data(), tile.get(), tile.bytes(), cudaMemcpyDeviceToHost, stream.get()));
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(sink_words.data(), sink.get(), sink.bytes(), cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  std::vector<std::uint32_t> expected(kernels::kSharedReadBlock);
  for (int t = 0; t < kernels::kSharedReadBlock; ++t) {
    expected[t] = expected_shared_sink_word(tile_words, t, kernels::kSharedReadBlock, kernels::kSharedVectorsPerThread,
                                            kSharedReadRounds);
  }
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < threads; ++i) wrong += sink_words[i] != expected[i % kernels::kSharedReadBlock];
  if (wrong != 0) {
    fail_benchmark(state, FailureKind::WrongResult, "verification failed: " + std::to_string(wrong) + " of " +
                                                        std::to_string(threads) + " threads summed the wrong words");
    return;
  }

  const double bytes_per_launch = static_cast<double>(
      shared_read_bytes_per_launch(threads, kSharedReadRounds, kernels::kSharedVectorsPerThread));
  const double total_gbps = gigabytes_per_second(bytes_per_launch, state.iterations(), timed_seconds);
  FigureLabel label{"bandwidth", "GB/s", Better::Higher, device.index, {}};
  label.params["tile_bytes"] = std::to_string(tile.bytes());
  label.params["bytes_per_launch"] = significant_digits(bytes_per_launch, 6);
  label.params["launch"] = "grid" + std::to_string(grid) + "xblock" + std::to_string(kernels::kSharedReadBlock) +
                           " ld.shared.v4";
  label.params["sms"] = std::to_string(sm_count);
  label.params["peak_from"] = "32 banks x 4 B per clock per SM at " + std::to_string(sm_clock_khz / 1000) + " MHz";
  if (figure == SharedFigure::PerSm) {
    report_figure(state, total_gbps / sm_count, shared_peak_gbps_per_sm(sm_clock_khz), label);
  } else {
    report_figure(state, total_gbps, shared_peak_gbps(sm_count, sm_clock_khz), label);
  }
}

void register_cache_benchmarks(const BenchmarkContext& context) {
  for (std::size_t bytes : l2_working_sets(context.suite)) {
    register_per_device(context, "cache/l2_read/" + size_name(bytes),
                        [&context, bytes](benchmark::State& state, const BenchmarkDevice& device) {
                          run_l2_read(state, context, device, bytes);
                        });
  }
  for (std::size_t bytes : l2_chunk_working_sets(context.suite)) {
    register_per_device(context, "cache/l2_read_chunked/" + size_name(bytes),
                        [&context, bytes](benchmark::State& state, const BenchmarkDevice& device) {
                          run_l2_chunk_read(state, context, device, bytes);
                        });
  }
  const std::string tile = size_name(static_cast<std::size_t>(kernels::kSharedTileVectors) * 16);
  register_per_device(context, "cache/shared_read/" + tile,
                      [&context](benchmark::State& state, const BenchmarkDevice& device) {
                        run_shared_read(state, context, device, SharedFigure::Total);
                      });
  register_per_device(context, "cache/shared_read_per_sm/" + tile,
                      [&context](benchmark::State& state, const BenchmarkDevice& device) {
                        run_shared_read(state, context, device, SharedFigure::PerSm);
                      });
}

}  // namespace

GPUBENCH_FAMILY("cache", register_cache_benchmarks);

}  // namespace gpubench
