// Registration: a pair benchmark on a one-GPU machine skips with the reason instead of failing, and without
// any GPU every benchmark skips with CUDA's reason; the benchmark bodies never run in either case. A body that
// throws fails with the kind its exception carries, through Google Benchmark's JSON to the harness.
#include "benchmarks/common/registry.hpp"

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "benchmarks/common/benchmark_failure.hpp"
#include "harness/results/gbench_import.hpp"

namespace gpubench {
namespace {

// Runs the matching benchmarks with Google Benchmark's own JSON reporter and reads the output the way the
// harness does (its Run fields differ between Google Benchmark releases; its JSON does not).
ImportedBenchmarks import_matching(const std::string& filter) {
  std::ostringstream json;
  std::ostringstream errors;
  benchmark::JSONReporter reporter;
  reporter.SetOutputStream(&json);
  reporter.SetErrorStream(&errors);
  benchmark::RunSpecifiedBenchmarks(&reporter, filter);
  return import_google_benchmark_json(parse_google_benchmark_output(json.str(), "test"), "test", "test");
}

std::map<std::string, std::string> run_matching(const std::string& filter) {
  const ImportedBenchmarks imported = import_matching(filter);
  std::map<std::string, std::string> messages;
  for (const Skip& skip : imported.skipped) messages[skip.benchmark] = "skipped: " + skip.reason;
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
  EXPECT_EQ(message, "skipped: needs two GPUs; 1 selected");
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
  for (const auto& [name, message] : messages) EXPECT_EQ(message, "skipped: " + no_gpu.no_gpu_reason) << name;
  EXPECT_FALSE(ran);
}

TEST(Registry, AThrowingBodyFailsWithTheKindItsExceptionCarries) {
  static BenchmarkContext context;
  context.devices = {BenchmarkDevice{0, nullptr}};
  register_all_devices(context, "test_throw/short", [](benchmark::State&, const std::vector<BenchmarkDevice>&) {
    throw BenchmarkFailure(FailureKind::OutOfMemory, "needs 2048 MiB of device memory, 100 MiB free");
  });
  register_all_devices(context, "test_throw/other", [](benchmark::State&, const std::vector<BenchmarkDevice>&) {
    throw std::runtime_error("ncclCommInitAll failed");
  });
  const ImportedBenchmarks imported = import_matching("^test_throw/");
  ASSERT_EQ(imported.failures.size(), 2u);
  std::map<std::string, Failure> by_name;
  for (const Failure& f : imported.failures) by_name[f.benchmark] = f;
  EXPECT_EQ(by_name.at("test_throw/short/all_gpus").kind, FailureKind::OutOfMemory);
  EXPECT_EQ(by_name.at("test_throw/short/all_gpus").reason, "needs 2048 MiB of device memory, 100 MiB free");
  EXPECT_EQ(by_name.at("test_throw/other/all_gpus").kind, FailureKind::ApiError);
  EXPECT_TRUE(imported.skipped.empty());
}

}  // namespace
}  // namespace gpubench
