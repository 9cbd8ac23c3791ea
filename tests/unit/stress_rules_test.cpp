// Every stress verdict rule on recorded-style telemetry series: a clean run, throttling, overheating, drift,
// a slow sibling, corruption counts.
#include "harness/stress/stress_rules.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace gpubench {
namespace {

// A minute of a healthy H200 under BF16 GEMM: 62-66 C, 690 W, 1980 MHz, power-capped now and then.
GpuStressRecord healthy(int index) {
  GpuStressRecord gpu;
  gpu.index = index;
  gpu.name = "NVIDIA H200";
  gpu.slowdown_threshold_c = 90;
  for (int t = 0; t < 60; ++t) {
    StressSample s;
    s.t = t;
    s.temperature_c = 62 + t / 15.0;
    s.power_w = 690;
    s.sm_clock_mhz = 1980;
    s.memory_clock_mhz = 3201;
    s.clock_event_reasons = t % 10 == 0 ? 0x4 : 0;  // sw power cap
    s.ecc_corrected = 0;
    s.ecc_uncorrected = 0;
    gpu.telemetry.push_back(s);
  }
  for (int w = 0; w < 6; ++w) gpu.windows.push_back({w * 10.0, w * 10.0 + 10, 780 - w * 2.0});
  gpu.gemm_runs = 600;
  gpu.memtest_passes = 40;
  return gpu;
}

bool has(const GpuStressVerdict& v, const std::string& check, const std::string& severity) {
  return std::any_of(v.findings.begin(), v.findings.end(),
                     [&](const StressFinding& f) { return f.check == check && f.severity == severity; });
}

TEST(StressRules, ACleanRunPassesWithThePowerCapAsInfo) {
  const auto verdicts = judge_stress({healthy(0), healthy(1)}, {});
  ASSERT_EQ(verdicts.size(), 2u);
  for (const GpuStressVerdict& v : verdicts) {
    EXPECT_EQ(v.verdict, Grade::Pass);
    EXPECT_TRUE(has(v, "throttle.sw_power_cap", "info"));
    EXPECT_NEAR(v.median_tflops, 775, 1);
    EXPECT_NEAR(v.max_temperature_c, 65.9, 0.1);
  }
  EXPECT_EQ(node_verdict(verdicts), Grade::Pass);
}

TEST(StressRules, HardwareThrottlingFailsAndSoftwareThermalWarns) {
  GpuStressRecord hw = healthy(0);
  hw.telemetry[30].clock_event_reasons |= 0x8;  // hw slowdown
  GpuStressRecord brake = healthy(1);
  brake.telemetry[5].clock_event_reasons |= 0x80;
  GpuStressRecord thermal = healthy(2);
  thermal.telemetry[40].clock_event_reasons |= 0x40;
  GpuStressRecord sw = healthy(3);
  sw.telemetry[40].clock_event_reasons |= 0x20;
  const auto v = judge_stress({hw, brake, thermal, sw}, {});
  EXPECT_TRUE(has(v[0], "throttle.hw_slowdown", "fail"));
  EXPECT_TRUE(has(v[1], "throttle.power_brake", "fail"));
  EXPECT_TRUE(has(v[2], "throttle.hw_thermal", "fail"));
  EXPECT_EQ(v[3].verdict, Grade::Warn);
  EXPECT_TRUE(has(v[3], "throttle.sw_thermal", "warn"));
  EXPECT_EQ(node_verdict(v), Grade::Fail);
}

TEST(StressRules, OverheatingAgainstTheSlowdownThresholdAndTheConfiguredMaximum) {
  GpuStressRecord slowdown = healthy(0);
  slowdown.telemetry[50].temperature_c = 90;
  GpuStressRecord hot = healthy(1);
  hot.slowdown_threshold_c = -1;  // not readable: the configured maximum still applies
  hot.telemetry[50].temperature_c = 86;
  const auto v = judge_stress({slowdown, hot}, {});
  EXPECT_TRUE(has(v[0], "temperature.slowdown", "fail"));
  EXPECT_TRUE(has(v[1], "temperature.maximum", "fail"));
  StressLimits relaxed;
  relaxed.max_temperature_c = 95;
  EXPECT_EQ(judge_stress({hot}, relaxed)[0].verdict, Grade::Pass);
}

TEST(StressRules, DriftOverTenPercentAfterTheWarmUpFails) {
  GpuStressRecord drifting = healthy(0);
  drifting.windows = {{0, 10, 790}, {10, 20, 780}, {20, 30, 740}, {30, 40, 700}};  // -10.3 % from 10 s on
  EXPECT_TRUE(has(judge_stress({drifting}, {})[0], "performance.drift", "fail"));
  GpuStressRecord steady = healthy(0);
  steady.windows = {{0, 10, 790}, {10, 20, 780}, {20, 30, 710}};  // -9 %
  EXPECT_FALSE(has(judge_stress({steady}, {})[0], "performance.drift", "fail"));
  // Settling onto the power cap in the first seconds is not drift.
  GpuStressRecord settling = healthy(0);
  settling.windows = {{0, 5, 780}, {5, 10, 690}, {10, 15, 676}, {15, 20, 675}, {20, 25, 674}};
  EXPECT_FALSE(has(judge_stress({settling}, {})[0], "performance.drift", "fail"));
}

TEST(StressRules, ASiblingMoreThanTenPercentSlowerFails) {
  GpuStressRecord slow = healthy(1);
  for (StressWindow& w : slow.windows) w.tflops *= 0.85;
  const auto v = judge_stress({healthy(0), slow}, {});
  EXPECT_EQ(v[0].verdict, Grade::Pass);
  EXPECT_TRUE(has(v[1], "performance.slow_sibling", "fail"));
}

TEST(StressRules, AGpuThatFinishedNoGemmFails) {
  GpuStressRecord idle = healthy(0);
  idle.windows.clear();
  idle.gemm_runs = 0;
  const std::vector<GpuStressVerdict> verdicts = judge_stress({idle}, StressLimits{});
  EXPECT_TRUE(has(verdicts[0], "load.none", "fail"));
  EXPECT_EQ(verdicts[0].verdict, Grade::Fail);
  EXPECT_FALSE(has(judge_stress({healthy(0)}, StressLimits{})[0], "load.none", "fail"));
}

TEST(StressRules, CorruptionEccAndXidFail) {
  GpuStressRecord gemm = healthy(0);
  gemm.gemm_mismatches = 1;
  gemm.first_gemm_mismatch = "run 412: element (17, 4095) 1.25 != 1.5";
  GpuStressRecord memory = healthy(1);
  memory.memtest_errors = 3;
  memory.first_memtest_error = "walking_ones word 123456";
  GpuStressRecord ecc = healthy(2);
  ecc.telemetry.back().ecc_uncorrected = 2;
  ecc.telemetry.back().ecc_corrected = 5;
  GpuStressRecord xid = healthy(3);
  xid.xid_events = {"Xid 79 at 31 s"};
  const auto v = judge_stress({gemm, memory, ecc, xid}, {});
  EXPECT_TRUE(has(v[0], "corruption.gemm", "fail"));
  EXPECT_NE(v[0].findings[0].message.find("1 of 600"), std::string::npos);
  EXPECT_TRUE(has(v[1], "corruption.memory", "fail"));
  EXPECT_TRUE(has(v[2], "ecc.uncorrectable", "fail"));
  EXPECT_TRUE(has(v[2], "ecc.correctable", "warn"));
  EXPECT_TRUE(has(v[3], "xid", "fail"));
  for (const auto& verdict : v) EXPECT_EQ(verdict.verdict, Grade::Fail);
}

TEST(StressRules, CopiesUnderLoadThatArriveWrongOrFailAreCaughtAndASkipSaysWhy) {
  GpuStressRecord p2p = healthy(0);
  p2p.interconnect = {true, 1, "", 400, 1, 400.0 * (256 << 20), 200, 0, 200.0 * (256 << 20), 60, ""};
  GpuStressRecord pcie = healthy(1);
  pcie.interconnect = {true, 0, "", 400, 0, 400.0 * (256 << 20), 200, 2, 200.0 * (256 << 20), 60, ""};
  GpuStressRecord failed = healthy(2);
  failed.interconnect.ran = true;
  failed.interconnect.error = "cudaMemcpyPeerAsync failed: cudaErrorLaunchFailure";
  GpuStressRecord alone = healthy(3);
  alone.interconnect = {true, -1, "one GPU in the run, no peer to copy from", 0, 0, 0, 200, 0, 200.0 * (256 << 20), 60, ""};
  const auto v = judge_stress({p2p, pcie, failed, alone}, {});
  EXPECT_TRUE(has(v[0], "corruption.p2p", "fail"));
  EXPECT_NE(v[0].findings[0].message.find("1 of 400 copies from GPU 1"), std::string::npos) << v[0].findings[0].message;
  EXPECT_TRUE(has(v[1], "corruption.pcie", "fail"));
  EXPECT_TRUE(has(v[2], "interconnect.failed", "fail"));
  EXPECT_EQ(v[3].verdict, Grade::Pass);
  EXPECT_TRUE(has(v[3], "interconnect.p2p_skipped", "info"));
  EXPECT_TRUE(has(v[3], "interconnect.traffic", "info"));
  EXPECT_FALSE(has(judge_stress({healthy(0)}, {})[0], "interconnect.traffic", "info")) << "no copies asked for, none reported";
}

}  // namespace
}  // namespace gpubench
