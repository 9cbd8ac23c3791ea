#include "benchmarks/common/registry.hpp"

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/reporting.hpp"

namespace gpubench {

double min_time_seconds(Suite suite) { return suite == Suite::Quick ? 0.1 : 0.5; }

void register_per_device(const BenchmarkContext& context, const std::string& name, DeviceBenchmark body) {
  for (const BenchmarkDevice& device : context.devices) {
    const std::string full_name = name + "/gpu" + std::to_string(device.index);
    benchmark::RegisterBenchmark(full_name.c_str(),
                                 [&context, device, body](benchmark::State& state) {
                                   if (!context.no_gpu_reason.empty()) {
                                     skip_benchmark(state, context.no_gpu_reason);
                                     return;
                                   }
                                   try {
                                     GPUBENCH_CUDA_CHECK(cudaSetDevice(device.index));
                                     body(state, device);
                                   } catch (const std::exception& error) {
                                     fail_benchmark(state, error.what());
                                   }
                                 })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond)
        ->MinTime(min_time_seconds(context.suite));
  }
}

void register_all_devices(const BenchmarkContext& context, const std::string& name, MultiDeviceBenchmark body) {
  const std::string full_name = name + "/all_gpus";
  benchmark::RegisterBenchmark(full_name.c_str(),
                               [&context, body](benchmark::State& state) {
                                 if (!context.no_gpu_reason.empty()) {
                                   skip_benchmark(state, context.no_gpu_reason);
                                   return;
                                 }
                                 try {
                                   body(state, context.devices);
                                 } catch (const std::exception& error) {
                                   fail_benchmark(state, error.what());
                                 }
                               })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond)
      ->MinTime(min_time_seconds(context.suite));
}

}  // namespace gpubench
