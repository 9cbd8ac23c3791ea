// A stress run in a results document: the first run is the "stress" section, each later one of the same document
// (acceptance's power and pulse loads) one of its "phases"; each load keeps what it measured and its own ids.
#include "harness/stress/stress_document.hpp"

#include <gtest/gtest.h>

namespace gpubench {
namespace {

GpuStressRecord loaded(StressMode mode) {
  GpuStressRecord gpu;
  gpu.index = 1;
  gpu.mode = mode;
  gpu.power_limit_w = 700;
  gpu.windows = {{0, 5, 760}, {5, 10, 758}};
  gpu.gemm_runs = 800;
  return gpu;
}

TEST(StressDocument, LaterLoadsArePhasesOfTheFirstWithTheirOwnFiguresAndFailures) {
  ResultsDocument doc;
  const std::vector<GpuStressRecord> sustained = {loaded(StressMode::Sustained)};
  add_stress_to_document(sustained, judge_stress(sustained, {}), {}, 120, doc);
  std::vector<GpuStressRecord> power = {loaded(StressMode::Power)};
  power[0].load_steps = {{1.5, 1}, {5, 2}};
  for (int t = 0; t <= 60; ++t) power[0].telemetry.push_back({double(t), 60, t < 10 ? 500.0 : 693.0, 1650, 3201, 0, 0, 0});
  std::vector<GpuStressVerdict> power_verdicts = judge_stress(power, {});
  add_stress_to_document(power, power_verdicts, {}, 60, doc);
  std::vector<GpuStressRecord> pulse = {loaded(StressMode::Pulse)};
  pulse[0].gemm_mismatches = 1;
  pulse[0].bursts = {{10, 3.1, 804}, {10, 3.2, 806}, {10, 3.3, 802}, {1000, 40, 738}, {1000, 42, 736}};
  add_stress_to_document(pulse, judge_stress(pulse, {}), {}, 60, doc);

  EXPECT_EQ(doc.stress["mode"], "sustained");
  EXPECT_EQ(doc.stress["duration_s"], 120);
  ASSERT_EQ(doc.stress["phases"].size(), 2u);
  const nlohmann::json& power_section = doc.stress["phases"][0];
  EXPECT_EQ(power_section["mode"], "power");
  EXPECT_EQ(power_section["limits"]["power_target"], 0.9);
  EXPECT_EQ(power_section["gpus"][0]["power"]["limit_w"], 700);
  EXPECT_EQ(power_section["gpus"][0]["power"]["load_steps"][1]["lanes"], 2);
  EXPECT_FALSE(doc.stress.contains("power")) << "the sustained load has no power verdict";
  EXPECT_EQ(doc.stress["phases"][1]["mode"], "pulse");
  EXPECT_TRUE(doc.stress["phases"][1]["gpus"][0].contains("pulse"));

  std::vector<std::string> ids;
  for (const Metric& m : doc.metrics) ids.push_back(m.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"stress/gemm_bf16/8192/gpu1/tflops", "stress/power/gemm_bf16/8192/gpu1/tflops",
                                           "stress/power/power_target/gpu1/share_of_power_limit",
                                           "stress/pulse/gemm_bf16/8192/10ms/gpu1/burst_tflops",
                                           "stress/pulse/gemm_bf16/8192/1s/gpu1/burst_tflops"}))
      << "the sustained figure keeps its id; the pulse load's warm-up is no figure, its bursts are, per period";
  EXPECT_NEAR(doc.metrics[2].value, 99.0, 1e-9) << "693 W of 700 after the warm-up";
  EXPECT_EQ(doc.metrics[2].unit, "%");
  EXPECT_EQ(doc.metrics[3].samples.size(), 3u);
  EXPECT_DOUBLE_EQ(doc.metrics[3].value, 804);
  EXPECT_DOUBLE_EQ(doc.metrics[4].value, 737);
  bool pulse_failure = false;
  for (const Failure& f : doc.failures) pulse_failure |= f.benchmark == "stress/pulse/gpu1" && f.reason.rfind("corruption.gemm", 0) == 0;
  EXPECT_TRUE(pulse_failure);
}

}  // namespace
}  // namespace gpubench
