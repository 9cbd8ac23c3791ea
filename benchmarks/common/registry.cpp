#include "benchmarks/common/registry.hpp"

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/exception_kind.hpp"
#include "benchmarks/common/reporting.hpp"

namespace gpubench {

double min_time_seconds(Suite suite) { return suite == Suite::Quick ? 0.05 : 0.5; }

double collective_min_time_seconds(Suite suite) { return suite == Suite::Quick ? 0.1 : 0.5; }

void register_per_device(const BenchmarkContext& context, const std::string& name, DeviceBenchmark body,
                         int fixed_iterations) {
  for (const BenchmarkDevice& device : context.devices) {
    const std::string full_name = name + "/gpu" + std::to_string(device.index);
    benchmark::internal::Benchmark* registered = benchmark::RegisterBenchmark(full_name.c_str(),
                                 [&context, device, body](benchmark::State& state) {
                                   if (!context.no_gpu_reason.empty()) {
                                     skip_benchmark(state, context.no_gpu_reason);
                                     return;
                                   }
                                   try {
                                     GPUBENCH_CUDA_CHECK(cudaSetDevice(device.index));
                                     body(state, device);
                                   } catch (const std::exception& error) {
                                     fail_benchmark(state, failure_kind_of(error), error.what());
                                   }
                                 })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    if (fixed_iterations > 0) {
      registered->Iterations(fixed_iterations);
    } else {
      registered->MinTime(min_time_seconds(context.suite));
    }
  }
}

benchmark::internal::Benchmark* register_all_devices(const BenchmarkContext& context, const std::string& name,
                                                    MultiDeviceBenchmark body, const std::string& suffix) {
  const std::string full_name = name + suffix;
  return benchmark::RegisterBenchmark(full_name.c_str(),
                               [&context, body](benchmark::State& state) {
                                 if (!context.no_gpu_reason.empty()) {
                                   skip_benchmark(state, context.no_gpu_reason);
                                   return;
                                 }
                                 try {
                                   body(state, context.devices);
                                 } catch (const std::exception& error) {
                                   fail_benchmark(state, failure_kind_of(error), error.what());
                                 }
                               })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond)
      ->MinTime(min_time_seconds(context.suite));
}

void register_per_pair(const BenchmarkContext& context, const std::string& name, PairBenchmark body) {
  std::vector<std::pair<BenchmarkDevice, BenchmarkDevice>> pairs;
  for (const BenchmarkDevice& from : context.devices) {
    for (const BenchmarkDevice& to : context.devices) {
      if (from.index != to.index) pairs.emplace_back(from, to);
    }
  }
  const bool too_few = pairs.empty();
  if (too_few) pairs.emplace_back(BenchmarkDevice{0, nullptr}, BenchmarkDevice{1, nullptr});
  for (const auto& [from, to] : pairs) {
    const std::string full_name = name + "/gpu" + std::to_string(from.index) + "-gpu" + std::to_string(to.index);
    const std::string selected = std::to_string(context.devices.size());
    benchmark::RegisterBenchmark(full_name.c_str(),
                                 [&context, from = from, to = to, body, too_few, selected](benchmark::State& state) {
                                   if (!context.no_gpu_reason.empty()) {
                                     skip_benchmark(state, context.no_gpu_reason);
                                     return;
                                   }
                                   if (too_few) {
                                     skip_benchmark(state, "needs two GPUs; " + selected + " selected");
                                     return;
                                   }
                                   try {
                                     GPUBENCH_CUDA_CHECK(cudaSetDevice(from.index));
                                     body(state, from, to);
                                   } catch (const std::exception& error) {
                                     fail_benchmark(state, failure_kind_of(error), error.what());
                                   }
                                 })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond)
        ->MinTime(min_time_seconds(context.suite));
  }
}

}  // namespace gpubench
