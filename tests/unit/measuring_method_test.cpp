// The kernel a figure was measured with: what a baseline keeps of it, and a check's word when a run used another.
#include "harness/baseline/measuring_method.hpp"

#include <gtest/gtest.h>

#include "harness/results/statistics.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {
namespace {

const std::map<std::string, std::string> kTile201 = {
    {"algo_id", "66"}, {"algo_tile", "201"}, {"algo_heuristic_rank", "6"}, {"algo_workspace_bytes", "4"}, {"layout", "TN"}};

TEST(MeasuringMethod, IsTheParamsThatNameTheKernel) {
  EXPECT_EQ(measuring_method(kTile201), (MeasuringMethod{{"algo_id", "66"}, {"algo_tile", "201"}}));
  EXPECT_EQ(measuring_method({{"launch", "256x4_vec16"}, {"bytes", "1073741824"}}),
            (MeasuringMethod{{"launch", "256x4_vec16"}}));
}

TEST(MeasuringMethod, ABaselineKeepsWhatItsRunsAgreedOn) {
  const MeasuringMethod tile_19{{"algo_id", "55"}, {"algo_tile", "19"}};
  const MeasuringMethod tile_20{{"algo_id", "55"}, {"algo_tile", "20"}};
  EXPECT_EQ(common_method({tile_19, tile_19}), tile_19);
  EXPECT_EQ(common_method({tile_19, tile_20, tile_19}), (MeasuringMethod{{"algo_id", "55"}}));
  EXPECT_TRUE(common_method({}).empty());
}

TEST(MeasuringMethod, ACheckSaysWhenTheRunUsedAnotherKernel) {
  BaselineMetric expected;
  expected.expected = 690;
  expected.spread = 1;
  expected.runs = 10;
  expected.tolerance = 0.05;
  expected.method = measuring_method(kTile201);
  Metric measured;
  measured.value = 669;
  measured.samples = {669, 670, 668};
  measured.statistics = summarize(measured.samples);
  measured.params = kTile201;
  EXPECT_EQ(judge_metric(measured, "gemm/bf16/8192x8192x8192/gpu0/tflops", expected).method_change, "");
  measured.params["algo_tile"] = "248";
  measured.params["algo_heuristic_rank"] = "0";
  const MetricVerdict v = judge_metric(measured, "gemm/bf16/8192x8192x8192/gpu0/tflops", expected);
  EXPECT_EQ(v.method_change, "algo_tile 201 -> 248");
  EXPECT_NE(v.reason.find("measured with another kernel than the baseline's: algo_tile 201 -> 248"), std::string::npos);
}

}  // namespace
}  // namespace gpubench
