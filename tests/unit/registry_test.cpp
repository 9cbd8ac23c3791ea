// Registration: a pair benchmark on a one-GPU machine skips with the reason instead of failing, and without
// any GPU every benchmark skips with CUDA's reason; the benchmark bodies never run in either case.
#include "benchmarks/common/registry.hpp"

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "benchmarks/common/benchmark_label.hpp"
#include "harness/results/gbench_import.hpp"

namespace gpubench {
namespace {

// Runs the matching benchmarks with Google Benchmark's own JSON reporter and reads the output the way the
// harness does (its Run fields differ between Google Benchmark releases; its JSON does not).
std::map<std::string, std::string> run_matching(const std::string& filter) {
  std::ostringstream json;
  std::ostringstream errors;
  benchmark::JSONReporter reporter;
  reporter.SetOutputStream(&json);
  reporter.SetErrorStream(&errors);
  benchmark::RunSpecifiedBenchmarks(&reporter, filter);
  const ImportedBenchmarks imported =
      import_google_benchmark_json(parse_google_benchmark_output(json.str(), "test"), "test", "test");
  std::map<std::string, std::string> messages;
  for (const Skip& skip : imported.skipped) messages[skip.benchmark] = std::string(kSkipPrefix) + skip.reason;
  for (const Failure& failure : imported.failures) messages[failure.benchmark] = failure.reason;
  for (const Metric& metric : imported.metrics) messages[metric.benchmark] = "ran";
  return messages;
}

TEST(Registry, PairsSkipWithTheReasonOnOneGpu) {
  static BenchmarkContext one_gpu;  // registered benchmarks keep a reference to their context
  one_gpu.devices = {BenchmarkDevice{0, nullptr}};
  bool ran = false;
  register_per_pair(one_gpu, "test_pair/copy", [&](benchmark::State&, const BenchmarkDevice&, const BenchmarkDevice&) { ran = true; });
  const auto messages = run_matching("^test_pair/");
  ASSERT_EQ(messages.size(), 1u);
  const auto& [name, message] = *messages.begin();
  EXPECT_EQ(name, "test_pair/copy/gpu0-gpu1");
  EXPECT_EQ(message, std::string(kSkipPrefix) + "needs two GPUs; 1 selected");
  EXPECT_FALSE(ran);
}

TEST(Registry, WithoutAGpuEveryKindSkipsWithCudasReason) {
  static BenchmarkContext no_gpu;
  no_gpu.devices = {BenchmarkDevice{0, nullptr}};
  no_gpu.no_gpu_reason = "no usable GPU: CUDA driver version is insufficient";
  bool ran = false;
  register_per_device(no_gpu, "test_none/one", [&](benchmark::State&, const BenchmarkDevice&) { ran = true; });
  register_all_devices(no_gpu, "test_none/all", [&](benchmark::State&, const std::vector<BenchmarkDevice>&) { ran = true; });
  register_per_pair(no_gpu, "test_none/pair", [&](benchmark::State&, const BenchmarkDevice&, const BenchmarkDevice&) { ran = true; });
  const auto messages = run_matching("^test_none/");
  ASSERT_EQ(messages.size(), 3u);
  for (const auto& [name, message] : messages) EXPECT_EQ(message, std::string(kSkipPrefix) + no_gpu.no_gpu_reason) << name;
  EXPECT_FALSE(ran);
}

}  // namespace
}  // namespace gpubench
