// Launch overhead: N tiny kernels launched plainly (one synchronisation at the end, or one after each launch)
// against the same N captured once into a CUDA Graph and replayed; what instantiating that graph costs; the
// graph's speed-up; and the latency from a launch call to the kernel's first store reaching the host.
//
// Every figure here is a host-side cost: what a program pays from deciding to run work until it knows the work
// ran. CUDA events would see only the GPU's share of it, so these benchmarks time with the host's steady_clock
// around work that ends in a synchronisation (or, for launch_to_start, in the host seeing the kernel's store),
// and report the median iteration (benchmarks/common/iteration_times.hpp says why).
// Each tiny kernel adds 1 to a device counter, and the counter must equal the number of kernels launched.
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/cuda_graph.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/family_registration.hpp"
#include "benchmarks/common/host_timer.hpp"
#include "benchmarks/common/iteration_times.hpp"
#include "benchmarks/common/registry.hpp"
#include "benchmarks/common/reporting.hpp"
#include "benchmarks/common/timed_loop.hpp"
#include "kernels/launch.cuh"

namespace gpubench {
namespace {

using Clock = std::chrono::steady_clock;

// How long the host waits for the flag kernel's store before it declares the launch lost (the first launch
// may load the module, so this is far above any real latency).
constexpr std::chrono::seconds kFlagTimeout{5};
// Launches of the flag kernel before the timed ones: module load, first-launch driver work, clocks ramping up.
constexpr int kFlagWarmups = 100;

std::vector<int> kernel_counts(Suite suite) {
  if (suite == Suite::Quick) return {1, 100, 10000};
  return {1, 10, 100, 1000, 10000};
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

enum class PlainSync { End, Each };

// `count` plain launches of the increment kernel. Returns the host time from the first launch call until the
// stream is idle again: with PlainSync::Each that includes `count` round trips, with End just one.
double time_plain(unsigned long long* counter, int count, PlainSync sync, cudaStream_t stream) {
  return host_seconds([&] {
    for (int i = 0; i < count; ++i) {
      GPUBENCH_CUDA_CHECK(kernels::launch_increment(counter, stream));
      if (sync == PlainSync::Each) GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    if (sync == PlainSync::End) GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  });
}

// One replay of an instantiated graph: the host time from cudaGraphLaunch until the stream is idle again.
double time_graph(const CudaGraphExec& exec, cudaStream_t stream) {
  return host_seconds([&] {
    exec.launch(stream);
    GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  });
}

// The same `count` increments as time_plain, recorded into a graph by stream capture (nothing runs yet).
CudaGraph capture_increments(unsigned long long* counter, int count, cudaStream_t stream) {
  return CudaGraph::capture(stream, [&] {
    for (int i = 0; i < count; ++i) GPUBENCH_CUDA_CHECK(kernels::launch_increment(counter, stream));
  });
}

DeviceBuffer<unsigned long long> zeroed_counter(cudaStream_t stream) {
  DeviceBuffer<unsigned long long> counter(1);
  GPUBENCH_CUDA_CHECK(cudaMemsetAsync(counter.get(), 0, counter.bytes(), stream));
  return counter;
}

// A counter at zero on a new stream, and `count` increments of it captured into a graph (nothing runs yet).
struct CapturedIncrements {
  explicit CapturedIncrements(int count)
      : counter(zeroed_counter(stream.get())), graph(capture_increments(counter.get(), count, stream.get())) {}

  CudaStream stream;
  DeviceBuffer<unsigned long long> counter;
  CudaGraph graph;
};

// True when the counter holds exactly `launched`; otherwise fails the benchmark with the reason.
bool counter_holds(benchmark::State& state, const DeviceBuffer<unsigned long long>& counter, unsigned long long launched,
                   cudaStream_t stream) {
  unsigned long long value = 0;
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(&value, counter.get(), sizeof value, cudaMemcpyDeviceToHost, stream));
  GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (value == launched) return true;
  fail_benchmark(state, FailureKind::WrongResult,
                 "verification failed: the device counter is " + std::to_string(value) + " after " +
                     std::to_string(launched) + " launches of a kernel that adds 1 to it");
  return false;
}

FigureLabel per_kernel_label(const BenchmarkDevice& device, int count, const std::string& how, const IterationTimes& times) {
  FigureLabel label{"time_per_kernel", "us", Better::Lower, device.index, {}};
  label.params["statistic"] = times.statistic();
  label.params["kernels"] = std::to_string(count);
  label.params["kernel"] = "1 block of 1 thread adding 1 to a device counter";
  label.params["launch"] = how;
  label.params["timer"] = "host steady_clock from the first launch call until the stream is idle";
  return label;
}

void run_plain(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device, int count,
               PlainSync sync) {
  CudaStream stream;
  const DeviceBuffer<unsigned long long> counter = zeroed_counter(stream.get());
  time_plain(counter.get(), count, sync, stream.get());  // warm-up: module load, first-launch driver work
  unsigned long long launched = count;
  const IterationTimes times = seconds_of_each_iteration(state, [&] {
    launched += count;
    return time_plain(counter.get(), count, sync, stream.get());
  });
  report_clocks(state, context, device);
  if (!counter_holds(state, counter, launched, stream.get())) return;
  const std::string how = sync == PlainSync::End ? "plain launches, cudaStreamSynchronize after the last"
                                                 : "plain launches, cudaStreamSynchronize after each";
  report_figure(state, times.median_seconds() / count * 1e6, std::nullopt, per_kernel_label(device, count, how, times));
}

void run_graph_replay(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                      int count) {
  const CapturedIncrements captured(count);
  const cudaStream_t stream = captured.stream.get();
  const CudaGraphExec exec(captured.graph);
  time_graph(exec, stream);  // warm-up: the first launch also uploads the graph to the device
  unsigned long long launched = count;
  const IterationTimes times = seconds_of_each_iteration(state, [&] {
    launched += count;
    return time_graph(exec, stream);
  });
  report_clocks(state, context, device);
  if (!counter_holds(state, captured.counter, launched, stream)) return;
  report_figure(state, times.median_seconds() / count * 1e6, std::nullopt,
                per_kernel_label(device, count, "one cudaGraphLaunch of a graph captured once, cudaStreamSynchronize", times));
}

// cudaGraphInstantiate of the captured N-kernel graph, a synchronous host call. Capture happens once, before
// the timed region; destroying each executable graph and uploading it to the device are not counted.
void run_graph_instantiate(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                           int count) {
  const CapturedIncrements captured(count);
  const cudaStream_t stream = captured.stream.get();
  time_graph(CudaGraphExec(captured.graph), stream);  // warm-up: one-off driver work of a first instantiation
  // The executable graph is destroyed after its time is taken, so its destruction is not counted.
  const IterationTimes times = seconds_of_each_iteration(state, [&] {
    const Clock::time_point start = Clock::now();
    const CudaGraphExec exec(captured.graph);
    return seconds_since(start);
  });
  report_clocks(state, context, device);
  // An instantiation like the timed ones must also run: replayed once, it adds exactly N more.
  time_graph(CudaGraphExec(captured.graph), stream);
  if (!counter_holds(state, captured.counter, 2ull * count, stream)) return;
  FigureLabel label{"time_per_graph", "us", Better::Lower, device.index, {}};
  label.params["kernels"] = std::to_string(count);
  label.params["timer"] = "host steady_clock around cudaGraphInstantiate (upload and destroy not counted)";
  label.params["statistic"] = times.statistic();
  report_figure(state, times.median_seconds() * 1e6, std::nullopt, label);
}

// Both ways, one after the other, in every iteration, so the ratio compares measurements taken under the same
// conditions; the iteration time is their sum, so the benchmark's running time stays bounded.
void run_graph_speedup(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                       int count) {
  const CapturedIncrements captured(count);
  const cudaStream_t stream = captured.stream.get();
  const CudaGraphExec exec(captured.graph);
  time_plain(captured.counter.get(), count, PlainSync::End, stream);
  time_graph(exec, stream);
  unsigned long long launched = 2ull * count;
  IterationTimes plain_times;
  IterationTimes graph_times;
  run_timed_iterations(state, [&] {
    const double plain = time_plain(captured.counter.get(), count, PlainSync::End, stream);
    const double replay = time_graph(exec, stream);
    plain_times.add(plain);
    graph_times.add(replay);
    launched += 2ull * count;
    return plain + replay;
  });
  report_clocks(state, context, device);
  if (!counter_holds(state, captured.counter, launched, stream)) return;
  const double plain = plain_times.median_seconds();
  const double replay = graph_times.median_seconds();
  FigureLabel label{"speedup", "x", Better::Higher, device.index, {}};
  label.params["kernels"] = std::to_string(count);
  label.params["ratio"] = "plain launches with one sync at the end over graph replay, each the " + plain_times.statistic();
  label.params["plain_us_per_kernel"] = std::to_string(plain / count * 1e6);
  label.params["graph_us_per_kernel"] = std::to_string(replay / count * 1e6);
  report_figure(state, plain / replay, std::nullopt, label);
}

// One word of pinned host memory mapped into the device's address space: a kernel stores to it across PCIe
// and the host polls it.
class MappedFlag {
 public:
  MappedFlag() {
    void* host = nullptr;
    GPUBENCH_CUDA_CHECK(cudaHostAlloc(&host, sizeof(std::uint32_t), cudaHostAllocMapped));
    host_.reset(static_cast<std::uint32_t*>(host));
    *host_ = 0;
    void* device = nullptr;
    GPUBENCH_CUDA_CHECK(cudaHostGetDevicePointer(&device, host, 0));
    device_ = static_cast<std::uint32_t*>(device);
  }
  std::uint32_t* device() const { return device_; }
  // volatile: the device changes it behind the compiler's back.
  std::uint32_t read() const { return *static_cast<volatile const std::uint32_t*>(host_.get()); }

 private:
  struct FreeHost {
    void operator()(std::uint32_t* pointer) const { cudaFreeHost(pointer); }
  };
  std::unique_ptr<std::uint32_t, FreeHost> host_;
  std::uint32_t* device_ = nullptr;
};

// The host time from just before the launch call until the host reads `token` from the flag. It includes the
// launch call itself (driver work and the doorbell write that hands the launch to the GPU), the GPU fetching
// the launch and starting the kernel's one thread, that thread's 4-byte store crossing PCIe into host memory,
// and the polling loop seeing it. It does not include the kernel's exit or any synchronisation call: the stream
// is drained after the timestamp, so every launch finds an idle stream.
double time_launch_to_flag(const MappedFlag& flag, std::uint32_t token, cudaStream_t stream) {
  const Clock::time_point start = Clock::now();
  GPUBENCH_CUDA_CHECK(kernels::launch_write_flag(flag.device(), token, stream));
  while (flag.read() != token) {
    if (Clock::now() - start > kFlagTimeout) {
      throw std::runtime_error("verification failed: the flag kernel's store did not reach the host within " +
                               std::to_string(kFlagTimeout.count()) + " s (stream status: " +
                               cudaGetErrorString(cudaStreamQuery(stream)) + ")");
    }
  }
  const double seconds = seconds_since(start);
  GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return seconds;
}

void run_launch_to_start(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device) {
  int can_map = 0;
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, device.index));
  if (can_map == 0) {
    skip_benchmark(state, "this GPU cannot map pinned host memory, which the flag the kernel writes lives in");
    return;
  }
  const MappedFlag flag;
  CudaStream stream;
  std::uint32_t token = 0;  // a new value per launch: a flag left over from the previous launch never matches
  for (int i = 0; i < kFlagWarmups; ++i) time_launch_to_flag(flag, ++token, stream.get());
  const IterationTimes times =
      seconds_of_each_iteration(state, [&] { return time_launch_to_flag(flag, ++token, stream.get()); });
  report_clocks(state, context, device);
  FigureLabel label{"latency", "us", Better::Lower, device.index, {}};
  label.params["statistic"] = times.statistic();
  label.params["includes"] = "launch call, kernel start, a 4-byte store over PCIe to mapped pinned host memory, host poll";
  label.params["timer"] = "host steady_clock from before the launch call until the host sees the store";
  report_figure(state, times.median_seconds() * 1e6, std::nullopt, label);
}

void run_plain_sync_end(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                        int count) {
  run_plain(state, context, device, count, PlainSync::End);
}

void run_plain_sync_each(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                         int count) {
  run_plain(state, context, device, count, PlainSync::Each);
}

void register_launch_benchmarks(const BenchmarkContext& context) {
  using RunWithCount = void (*)(benchmark::State&, const BenchmarkContext&, const BenchmarkDevice&, int);
  const std::pair<const char*, RunWithCount> with_count[] = {
      {"plain_sync_end", run_plain_sync_end},   {"plain_sync_each", run_plain_sync_each},
      {"graph_replay", run_graph_replay},       {"graph_instantiate", run_graph_instantiate},
      {"graph_speedup", run_graph_speedup},
  };
  for (int count : kernel_counts(context.suite)) {
    for (const auto& [variant, run] : with_count) {
      register_per_device(context, std::string("launch/") + variant + "/" + std::to_string(count),
                          [&context, run = run, count](benchmark::State& state, const BenchmarkDevice& device) {
                            run(state, context, device, count);
                          });
    }
  }
  register_per_device(context, "launch/launch_to_start",
                      [&context](benchmark::State& state, const BenchmarkDevice& device) {
                        run_launch_to_start(state, context, device);
                      });
}

}  // namespace

GPUBENCH_FAMILY("launch", register_launch_benchmarks);

}  // namespace gpubench
