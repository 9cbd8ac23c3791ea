// What synchronisation costs, on the device and on the host.
//
// Device: one multi-step shared-memory stencil (kernels/sync.cuh) with only the barriers it needs (light) and
// with a redundant __syncthreads() after every shared-memory operation (heavy), over a random array, timed with
// CUDA events. The two outputs are compared bit for bit over the whole array, and each with a host reference on
// chunks of it (the start, the end and chunks in between).
//
// Host: N one-thread launches on a stream with cudaDeviceSynchronize after each, with cudaEventSynchronize on an
// event recorded after each, or stream-ordered with one cudaStreamSynchronize at the end. These are host-side
// costs (how long the host is held up), so they are timed with the host's steady_clock around work that ends
// in a synchronisation, and reported as the median iteration. Each launch advances a hash chain, so the final value checks that every launch ran,
// once and in order, whichever way the host waited.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/cuda_event.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/event_timer.hpp"
#include "benchmarks/common/family_registration.hpp"
#include "benchmarks/common/host_timer.hpp"
#include "benchmarks/common/iteration_times.hpp"
#include "benchmarks/common/mismatch_counter.hpp"
#include "benchmarks/common/registry.hpp"
#include "benchmarks/common/reporting.hpp"
#include "benchmarks/common/timed_loop.hpp"
#include "kernels/random_fill.cuh"
#include "kernels/sync.cuh"

namespace gpubench {
namespace {

using kernels::SyncVariant;

struct ArraySize {
  std::size_t bytes;
  const char* name;
};

// 16 MiB in and 16 MiB out fit together in the 50 MB L2 of an H100 or H200, so barrier stalls are not hidden
// behind DRAM traffic; 256 MiB is far past any L2, where HBM latency can hide some of them.
std::vector<ArraySize> array_sizes(Suite suite) {
  if (suite == Suite::Quick) return {{std::size_t{256} << 20, "256MiB"}};
  return {{std::size_t{16} << 20, "16MiB"}, {std::size_t{256} << 20, "256MiB"}};
}

std::vector<int> launch_counts(Suite suite) {
  if (suite == Suite::Quick) return {100, 10000};
  return {10, 100, 1000, 10000};
}

// Stencil launches between one pair of events, so the events' own overhead is spread over many kernels.
constexpr int kLaunchesPerIteration = 20;
constexpr std::uint64_t kInputSeed = 7;
// Host-reference chunks: the first and last elements, and chunks at pseudo-random offsets in between.
constexpr int kReferenceChunks = 8;
constexpr std::size_t kReferenceChunkLength = 4096;

struct SmoothArrays {
  SmoothArrays(std::size_t count, cudaStream_t stream) : input(count), light(count), heavy(count) {
    GPUBENCH_CUDA_CHECK(kernels::fill_random(input.get(), count, kInputSeed, -1.0f, 1.0f, stream));
    // NaN poison: an element a kernel never wrote cannot match the reference.
    GPUBENCH_CUDA_CHECK(cudaMemsetAsync(light.get(), 0xFF, light.bytes(), stream));
    GPUBENCH_CUDA_CHECK(cudaMemsetAsync(heavy.get(), 0xFF, heavy.bytes(), stream));
  }
  const DeviceBuffer<float>& output(SyncVariant variant) const { return variant == SyncVariant::Light ? light : heavy; }

  DeviceBuffer<float> input, light, heavy;
};

// kLaunchesPerIteration launches of one variant, timed with CUDA events.
double time_smooth(SyncVariant variant, const SmoothArrays& arrays, EventTimer& timer, cudaStream_t stream) {
  return timer.time(stream, [&] {
    for (int i = 0; i < kLaunchesPerIteration; ++i) {
      GPUBENCH_CUDA_CHECK(kernels::launch_smooth(variant, arrays.input.get(), arrays.output(variant).get(),
                                                 arrays.input.count(), stream));
    }
  });
}

std::vector<float> copy_to_host(const float* device, std::size_t count, cudaStream_t stream) {
  std::vector<float> host(count);
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(host.data(), device, count * sizeof(float), cudaMemcpyDeviceToHost, stream));
  GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

// The stencil's output on [first, first + length), computed on the host from the device's input: a window
// kSmoothSteps elements wider on each side, losing one element at each end per step, zero outside the array.
std::vector<float> reference_chunk(const SmoothArrays& arrays, std::size_t first, std::size_t length,
                                   cudaStream_t stream) {
  const std::size_t count = arrays.input.count();
  const std::size_t halo = kernels::kSmoothSteps;
  const std::size_t window_first = first >= halo ? first - halo : 0;
  const std::size_t window_end = std::min(count, first + length + halo);
  const std::vector<float> input =
      copy_to_host(arrays.input.get() + window_first, window_end - window_first, stream);
  // values[j] is element first - halo + j; elements outside the array stay zero.
  std::vector<float> values(length + 2 * halo, 0.0f);
  std::copy(input.begin(), input.end(), values.begin() + static_cast<std::ptrdiff_t>(window_first + halo - first));
  std::vector<float> next(values.size(), 0.0f);
  for (std::size_t step = 1; step <= halo; ++step) {
    for (std::size_t j = step; j + step < values.size(); ++j) {
      const bool inside = first + j >= halo && first + j - halo < count;
      next[j] = inside ? 0.25f * ((values[j - 1] + values[j + 1]) + (values[j] + values[j])) : 0.0f;
    }
    values.swap(next);
  }
  return std::vector<float>(values.begin() + static_cast<std::ptrdiff_t>(halo),
                            values.begin() + static_cast<std::ptrdiff_t>(halo + length));
}

std::uint32_t bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// Empty when the light and heavy outputs agree bit for bit everywhere and both match the host reference on
// every chunk; otherwise the reason the benchmark fails.
std::string check_smooth(const SmoothArrays& arrays, cudaStream_t stream) {
  const std::size_t count = arrays.input.count();
  const unsigned long long differing =
      MismatchCounter().differing_words(arrays.heavy.get(), arrays.light.get(), arrays.light.bytes(), stream);
  if (differing != 0) {
    return "verification failed: the heavy and light outputs differ in " + std::to_string(differing) + " of " +
           std::to_string((arrays.light.bytes() + 7) / 8) + " 8-byte words";
  }
  const std::size_t length = std::min(count, kReferenceChunkLength);
  for (int chunk = 0; chunk < kReferenceChunks; ++chunk) {
    std::size_t first = 0;
    if (chunk == 1) {
      first = count - length;
    } else if (chunk > 1) {
      first = static_cast<std::size_t>(kernels::mix64(kInputSeed + chunk) % (count - length + 1));
    }
    const std::vector<float> want = reference_chunk(arrays, first, length, stream);
    for (SyncVariant variant : {SyncVariant::Light, SyncVariant::Heavy}) {
      const std::vector<float> got = copy_to_host(arrays.output(variant).get() + first, length, stream);
      for (std::size_t i = 0; i < length; ++i) {
        if (bits(got[i]) != bits(want[i])) {
          return std::string("verification failed: the ") + kernels::sync_variant_name(variant) + " output[" +
                 std::to_string(first + i) + "] is " + std::to_string(got[i]) + ", the host reference " +
                 std::to_string(want[i]);
        }
      }
    }
  }
  return "";
}

enum class DeviceFigure { LightTime, HeavyTime, Slowdown };

void run_device(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                const ArraySize& size, DeviceFigure figure) {
  const std::size_t count = size.bytes / sizeof(float);
  CudaStream stream;
  const SmoothArrays arrays(count, stream.get());
  EventTimer timer;
  // Warm-up, and both outputs exist for the check whichever variant is timed.
  time_smooth(SyncVariant::Light, arrays, timer, stream.get());
  time_smooth(SyncVariant::Heavy, arrays, timer, stream.get());
  const bool time_light = figure != DeviceFigure::HeavyTime;
  const bool time_heavy = figure != DeviceFigure::LightTime;
  double light_seconds = 0;
  double heavy_seconds = 0;
  run_timed_iterations(state, [&] {
    const double light = time_light ? time_smooth(SyncVariant::Light, arrays, timer, stream.get()) : 0.0;
    const double heavy = time_heavy ? time_smooth(SyncVariant::Heavy, arrays, timer, stream.get()) : 0.0;
    light_seconds += light;
    heavy_seconds += heavy;
    return light + heavy;  // for the slowdown both, so its running time stays bounded
  });
  report_clocks(state, context, device);
  const std::string wrong = check_smooth(arrays, stream.get());
  if (!wrong.empty()) {
    fail_benchmark(state, FailureKind::WrongResult, wrong);
    return;
  }
  const double kernels_timed = static_cast<double>(state.iterations()) * kLaunchesPerIteration;
  FigureLabel label{"kernel_time", "us", Better::Lower, device.index, {}};
  label.params["array_bytes"] = std::to_string(size.bytes);
  label.params["stencil"] = "3-point smoothing, " + std::to_string(kernels::kSmoothSteps) + " steps in shared memory";
  label.params["block"] = std::to_string(kernels::kSmoothBlock);
  label.params["timer"] = "CUDA events around " + std::to_string(kLaunchesPerIteration) + " launches";
  if (figure == DeviceFigure::Slowdown) {
    label.figure = "slowdown";
    label.unit = "x";
    label.params["ratio"] = "heavy kernel time over light kernel time";
    label.params["light_us"] = std::to_string(light_seconds / kernels_timed * 1e6);
    label.params["heavy_us"] = std::to_string(heavy_seconds / kernels_timed * 1e6);
    report_figure(state, heavy_seconds / light_seconds, std::nullopt, label);
    return;
  }
  const double seconds = figure == DeviceFigure::LightTime ? light_seconds : heavy_seconds;
  report_figure(state, seconds / kernels_timed * 1e6, std::nullopt, label);
}

enum class HostSync { DeviceEach, EventEach, StreamEnd };

// `count` chain steps numbered first_step, first_step + 1, ... Returns the host time from the first launch
// call until the host knows the last step is done.
//
// EventEach records an event after each launch and waits on it with cudaEventSynchronize: the host-side
// alternative to cudaDeviceSynchronize when the host needs one piece of work finished, as opposed to the whole
// device. (Chaining streams with cudaStreamWaitEvent would never hold the host up, so it would measure a
// device-side dependency, not a host wait.)
double time_chain(HostSync sync, std::uint64_t* state, std::uint64_t first_step, int count, cudaEvent_t done,
                  cudaStream_t stream) {
  return host_seconds([&] {
    for (int i = 0; i < count; ++i) {
      GPUBENCH_CUDA_CHECK(kernels::launch_chain_step(state, first_step + static_cast<std::uint64_t>(i), stream));
      if (sync == HostSync::DeviceEach) {
        GPUBENCH_CUDA_CHECK(cudaDeviceSynchronize());
      } else if (sync == HostSync::EventEach) {
        GPUBENCH_CUDA_CHECK(cudaEventRecord(done, stream));
        GPUBENCH_CUDA_CHECK(cudaEventSynchronize(done));
      }
    }
    if (sync == HostSync::StreamEnd) GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  });
}

const char* host_sync_description(HostSync sync) {
  switch (sync) {
    case HostSync::DeviceEach: return "cudaDeviceSynchronize after each launch";
    case HostSync::EventEach: return "cudaEventRecord and cudaEventSynchronize after each launch";
    case HostSync::StreamEnd: return "stream-ordered, cudaStreamSynchronize after the last launch";
  }
  return "";
}

void run_host(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device, int count,
              HostSync sync) {
  CudaStream stream;
  const CudaEvent done(cudaEventDisableTiming);  // the cheapest kind to record and to wait on
  const std::uint64_t initial = kernels::mix64(kInputSeed);  // random, not zero
  DeviceBuffer<std::uint64_t> chain(1);
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(chain.get(), &initial, sizeof initial, cudaMemcpyHostToDevice, stream.get()));
  time_chain(sync, chain.get(), 0, count, done.get(), stream.get());  // warm-up: module load, first launches
  std::uint64_t steps = static_cast<std::uint64_t>(count);
  const IterationTimes times = seconds_of_each_iteration(state, [&] {
    const double seconds = time_chain(sync, chain.get(), steps, count, done.get(), stream.get());
    steps += static_cast<std::uint64_t>(count);
    return seconds;
  });
  report_clocks(state, context, device);
  std::uint64_t expected = initial;
  for (std::uint64_t step = 0; step < steps; ++step) expected = kernels::mix64(expected ^ step);
  std::uint64_t got = 0;
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(&got, chain.get(), sizeof got, cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  if (got != expected) {
    fail_benchmark(state, FailureKind::WrongResult, "verification failed: after " + std::to_string(steps) +
                              " chain steps the device holds " + std::to_string(got) + ", the host expects " +
                              std::to_string(expected) + " (a launch lost, repeated or run out of order)");
    return;
  }
  FigureLabel label{"time_per_launch", "us", Better::Lower, device.index, {}};
  label.params["launches"] = std::to_string(count);
  label.params["sync"] = host_sync_description(sync);
  label.params["kernel"] = "1 block of 1 thread advancing a hash chain";
  label.params["timer"] = "host steady_clock from the first launch call until the last sync returns";
  label.params["statistic"] = times.statistic();
  report_figure(state, times.median_seconds() / count * 1e6, std::nullopt, label);
}

void register_sync_benchmarks(const BenchmarkContext& context) {
  const std::pair<const char*, DeviceFigure> device_figures[] = {
      {"device_light", DeviceFigure::LightTime},
      {"device_heavy", DeviceFigure::HeavyTime},
      {"device_slowdown", DeviceFigure::Slowdown},
  };
  for (const ArraySize& size : array_sizes(context.suite)) {
    for (const auto& [variant, figure] : device_figures) {
      register_per_device(context, std::string("sync/") + variant + "/" + size.name,
                          [&context, size, figure = figure](benchmark::State& state, const BenchmarkDevice& device) {
                            run_device(state, context, device, size, figure);
                          });
    }
  }
  const std::pair<const char*, HostSync> host_syncs[] = {
      {"host_sync_each", HostSync::DeviceEach},
      {"host_stream_ordered", HostSync::StreamEnd},
      {"host_event_wait", HostSync::EventEach},
  };
  for (int count : launch_counts(context.suite)) {
    for (const auto& [variant, sync] : host_syncs) {
      register_per_device(context, std::string("sync/") + variant + "/" + std::to_string(count),
                          [&context, count, sync = sync](benchmark::State& state, const BenchmarkDevice& device) {
                            run_host(state, context, device, count, sync);
                          });
    }
  }
}

}  // namespace

GPUBENCH_FAMILY("sync", register_sync_benchmarks);

}  // namespace gpubench
