// baseline create names a run that is not like the others, on real data: five healthy one-H200 runs (the nightly
// recordings of tests/data/nightly_h200x1 and tests/data/slowdown_h200x1/healthy.json) and the run measured while
// another process multiplied BF16 matrices on the same GPU (slowdown_h200x1/heavy.json: BF16 -46 %).
#include "harness/baseline/outlier_runs.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/results/results_io.hpp"
#include "harness/results/statistics.hpp"

namespace gpubench {
namespace {

const std::string kData = std::string(GPUBENCH_TEST_DATA) + "/";

std::vector<SourcedResults> healthy_runs() {
  std::vector<SourcedResults> runs;
  for (const char* name : {"nightly_h200x1/night1.json", "nightly_h200x1/night2.json", "nightly_h200x1/night3.json",
                           "nightly_h200x1/night_another_node.json", "slowdown_h200x1/healthy.json"}) {
    runs.push_back({name, read_results_file(kData + name)});
  }
  return runs;
}

// A copy of `run` whose figures with `part` in their id measure `factor` times as much, every repetition.
SourcedResults scaled_copy(const SourcedResults& run, const std::string& part, double factor) {
  SourcedResults copy{"scaled-" + run.path, run.results};
  copy.results.run.id = "scaled";
  for (Metric& m : copy.results.metrics) {
    if (m.id.find(part) == std::string::npos) continue;
    for (double& sample : m.samples) sample *= factor;
    m.statistics = summarize(m.samples);
    m.value = m.statistics.median;
  }
  return copy;
}

TEST(OutlierRuns, HealthyRunsOfTwoNodesHaveNone) { EXPECT_TRUE(outlier_runs(healthy_runs()).empty()); }

TEST(OutlierRuns, TheRunUnderAHeavyLoadIsNamedOnItsBf16AndFp8Figures) {
  std::vector<SourcedResults> runs = healthy_runs();
  runs.push_back({"slowdown_h200x1/heavy.json", read_results_file(kData + "slowdown_h200x1/heavy.json")});
  const std::vector<OutlierRun> outliers = outlier_runs(runs);
  ASSERT_EQ(outliers.size(), 1u);
  EXPECT_EQ(outliers[0].index, 5u);
  EXPECT_EQ(outliers[0].path, "slowdown_h200x1/heavy.json");
  EXPECT_EQ(outliers[0].run_id, runs[5].results.run.id);
  ASSERT_EQ(outliers[0].figures.size(), 2u);
  EXPECT_EQ(outliers[0].figures[0].metric, "gemm/bf16/8192x8192x8192/gpu0/tflops");
  EXPECT_EQ(outliers[0].figures[1].metric, "gemm/fp8_e4m3/8192x8192x8192/gpu0/tflops");
  EXPECT_NEAR(outliers[0].figures[0].deviation, -0.46, 0.02);
  EXPECT_EQ(outliers[0].figures[0].others, 5);
  const std::string text = describe(outliers[0]);
  EXPECT_NE(text.find(runs[5].results.run.id + " (slowdown_h200x1/heavy.json): gemm/bf16/8192x8192x8192/gpu0/tflops"),
            std::string::npos) << text;
  EXPECT_NE(text.find("-46.5 % against 687.5, the median of the other 5 runs (tolerance 5 %)"), std::string::npos)
      << text;
}

TEST(OutlierRuns, OnlyTheWorseSideMakesAnOutlier) {
  std::vector<SourcedResults> runs = healthy_runs();
  runs.push_back(scaled_copy(runs[0], "bf16/", 0.58));
  runs.push_back(scaled_copy(runs[1], "bf16/", 1.42));
  const std::vector<OutlierRun> outliers = outlier_runs(runs);
  ASSERT_EQ(outliers.size(), 1u);
  EXPECT_EQ(outliers[0].index, 5u) << "42 % slower, not 42 % faster";
  std::vector<std::string> figures;
  for (const OutlyingFigure& f : outliers[0].figures) figures.push_back(f.metric);
  EXPECT_EQ(figures, std::vector<std::string>{"gemm/bf16/8192x8192x8192/gpu0/tflops"})
      << "bf16 4096 and burst decide no acceptance";
}

// A time is worse when it is longer; what decides acceptance and is not host-bound is judged, and nothing else.
TEST(OutlierRuns, HostBoundAndUndecidingFiguresNameNoRun) {
  std::vector<SourcedResults> runs = healthy_runs();
  SourcedResults odd = scaled_copy(runs[0], "launch/graph_speedup/100/", 0.5);
  odd = scaled_copy(odd, "cache/", 0.5);
  odd = scaled_copy(odd, "sync/host_", 3.0);
  runs.push_back(odd);
  EXPECT_TRUE(outlier_runs(runs).empty());
}

TEST(OutlierRuns, TwoRunsAreTooFewToTell) {
  std::vector<SourcedResults> runs = healthy_runs();
  runs.resize(1);
  runs.push_back(scaled_copy(runs[0], "bf16/", 0.58));
  EXPECT_TRUE(outlier_runs(runs).empty());
  runs.push_back(healthy_runs()[2]);
  ASSERT_EQ(outlier_runs(runs).size(), 1u) << "with a third, the slow one is told";
  EXPECT_EQ(outlier_runs(runs)[0].index, 1u);
}

}  // namespace
}  // namespace gpubench
