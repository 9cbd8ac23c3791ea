// Registration: a pair benchmark on a one-GPU machine skips with the reason instead of failing, and without
// any GPU every benchmark skips with CUDA's reason; the benchmark bodies never run in either case. With four or
// eight GPUs a pair benchmark is registered once for every ordered pair of the selected GPUs. A body that
// throws fails with the kind its exception carries, through Google Benchmark's JSON to the harness.
#include "benchmarks/common/registry.hpp"

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "benchmarks/common/benchmark_failure.hpp"
#include "benchmarks/common/metric_id.hpp"
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

// The pair segments of the benchmarks registered under `prefix` by register_per_pair for `gpus`, in the order
// Google Benchmark ran them. Without a GPU each one skips, so no body runs and no CUDA call is made.
std::vector<std::string> registered_pairs(BenchmarkContext& context, const std::vector<int>& gpus, const std::string& prefix) {
  for (int gpu : gpus) context.devices.push_back(BenchmarkDevice{gpu, nullptr});
  context.no_gpu_reason = "no usable GPU: a CPU test";
  register_per_pair(context, prefix + "/copy", [](benchmark::State&, const BenchmarkDevice&, const BenchmarkDevice&) {});
  const ImportedBenchmarks imported = import_matching("^" + prefix + "/");
  std::vector<std::string> pairs;
  for (const Skip& skip : imported.skipped) pairs.push_back(skip.benchmark.substr(skip.benchmark.rfind('/') + 1));
  EXPECT_TRUE(imported.metrics.empty() && imported.failures.empty());
  return pairs;
}

TEST(Registry, EightGpusGiveEveryOrderedPairOnce) {
  static BenchmarkContext eight;
  const std::vector<std::string> pairs = registered_pairs(eight, {0, 1, 2, 3, 4, 5, 6, 7}, "test_pairs8");
  // 8 senders x 7 receivers each = 56 ordered pairs, A before B in the name (data moves from A to B).
  ASSERT_EQ(pairs.size(), 56u);
  EXPECT_EQ(pairs.front(), "gpu0-gpu1");
  EXPECT_EQ(pairs[6], "gpu0-gpu7");
  EXPECT_EQ(pairs[7], "gpu1-gpu0");
  EXPECT_EQ(pairs.back(), "gpu7-gpu6");
  std::set<std::pair<int, int>> seen;
  std::map<int, int> sent;
  std::map<int, int> received;
  for (const std::string& segment : pairs) {
    const std::optional<std::pair<int, int>> pair = parse_gpu_pair_segment(segment);
    ASSERT_TRUE(pair) << segment << " is not gpuA-gpuB";
    EXPECT_NE(pair->first, pair->second) << segment;
    EXPECT_TRUE(seen.insert(*pair).second) << segment << " registered twice";
    ++sent[pair->first];
    ++received[pair->second];
  }
  for (int gpu = 0; gpu < 8; ++gpu) {
    EXPECT_EQ(sent[gpu], 7) << "gpu" << gpu << " sends to each of the 7 others once";
    EXPECT_EQ(received[gpu], 7) << "gpu" << gpu << " receives from each of the 7 others once";
  }
}

TEST(Registry, FourGpusAndAChosenSubsetGiveTheirOrderedPairs) {
  static BenchmarkContext four;
  EXPECT_EQ(registered_pairs(four, {0, 1, 2, 3}, "test_pairs4").size(), 12u);  // 4 x 3
  // --devices 1,4,6: 3 x 2 = 6 pairs, named by the CUDA indices, not by their place in the selection.
  static BenchmarkContext chosen;
  EXPECT_EQ(registered_pairs(chosen, {1, 4, 6}, "test_pairs_chosen"),
            (std::vector<std::string>{"gpu1-gpu4", "gpu1-gpu6", "gpu4-gpu1", "gpu4-gpu6", "gpu6-gpu1", "gpu6-gpu4"}));
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
