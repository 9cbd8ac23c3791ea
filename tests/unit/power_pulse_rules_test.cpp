// The rules of the power-target and pulse loads and of clock collapse, on synthetic telemetry shaped like an
// H200's under BF16 GEMM (700 W enforced limit, 1980 MHz maximum SM clock): reached or not and why, bursts that
// collapse, clocks that collapse, and what each leaves out (the warm-up, the tail).
#include <gtest/gtest.h>

#include <algorithm>

#include "harness/stress/clock_collapse_rules.hpp"
#include "harness/stress/power_target_rules.hpp"
#include "harness/stress/pulse_rules.hpp"
#include "harness/stress/stress_rules.hpp"

namespace gpubench {
namespace {

// A minute under the power load: ramping for 4 s, then `watts` at `clock` MHz; power-capped when at the limit.
GpuStressRecord power_run(double watts, double clock, StressMode mode = StressMode::Power) {
  GpuStressRecord gpu;
  gpu.index = 0;
  gpu.mode = mode;
  gpu.power_limit_w = 700;
  gpu.max_sm_clock_mhz = 1980;
  gpu.slowdown_threshold_c = 90;
  for (int t = 0; t < 60; ++t) {
    StressSample s;
    s.t = t;
    s.power_w = t < 4 ? 150 * (t + 1) : watts + (t % 3) - 1;
    s.sm_clock_mhz = clock;
    s.temperature_c = 55 + t / 6.0;
    s.clock_event_reasons = watts >= 690 ? 0x4 : 0;  // sw power cap when at the limit
    s.ecc_corrected = s.ecc_uncorrected = 0;
    gpu.telemetry.push_back(s);
  }
  for (int w = 0; w < 12; ++w) gpu.windows.push_back({w * 5.0, w * 5.0 + 5, 760});
  gpu.gemm_runs = 3000;
  return gpu;
}

bool has(const std::vector<StressFinding>& findings, const std::string& check, const std::string& severity) {
  return std::any_of(findings.begin(), findings.end(), [&](const StressFinding& f) { return f.check == check && f.severity == severity; });
}

TEST(PowerTarget, AGpuOnItsCapReachesTheTargetAndSaysWithWhat) {
  std::vector<StressFinding> findings;
  const PowerTargetResult r = judge_power_target(power_run(695, 1755), {}, findings);
  EXPECT_TRUE(r.judged);
  EXPECT_TRUE(r.reached);
  EXPECT_NEAR(r.median_w, 695, 1);
  EXPECT_EQ(r.limit_w, 700);
  EXPECT_EQ(r.median_sm_clock_mhz, 1755);
  ASSERT_TRUE(has(findings, "power.target_reached", "info"));
  const std::string& message = findings.front().message;
  EXPECT_NE(message.find("695 W of its 700 W enforced limit (99 %, target 90 %)"), std::string::npos) << message;
  EXPECT_NE(message.find("sw_power_cap"), std::string::npos) << message;
}

TEST(PowerTarget, NinetyPerCentIsTheLineAndTheWarmUpDoesNotCount) {
  std::vector<StressFinding> findings;
  EXPECT_TRUE(judge_power_target(power_run(631, 1900), {}, findings).reached);  // 90.1 %, the ramp left out
  EXPECT_FALSE(judge_power_target(power_run(625, 1900), {}, findings).reached);  // 89.3 %
}

TEST(PowerTarget, ShortOfTheLimitWithClocksHeldDownFails) {
  std::vector<StressFinding> findings;
  const PowerTargetResult r = judge_power_target(power_run(520, 1410), {}, findings);
  EXPECT_TRUE(r.judged);
  EXPECT_FALSE(r.reached);
  EXPECT_TRUE(has(findings, "power.target_not_reached", "fail"));
  EXPECT_NE(findings.front().message.find("520 W of its 700 W"), std::string::npos) << findings.front().message;
}

TEST(PowerTarget, ShortOfTheLimitAtFullClocksIsTheLoadsFaultAndWarns) {
  std::vector<StressFinding> findings;
  judge_power_target(power_run(560, 1980), {}, findings);
  EXPECT_TRUE(has(findings, "power.target_not_reached", "warn"));
}

TEST(PowerTarget, WithoutALimitOrReadingsItIsNotJudged) {
  GpuStressRecord no_limit = power_run(695, 1755);
  no_limit.power_limit_w = -1;
  std::vector<StressFinding> findings;
  EXPECT_FALSE(judge_power_target(no_limit, {}, findings).judged);
  EXPECT_TRUE(has(findings, "power.not_judged", "warn"));
  GpuStressRecord short_run = power_run(695, 1755);
  short_run.telemetry.resize(12);  // 10 s of warm-up, 2 s of tail: nothing steady
  findings.clear();
  EXPECT_FALSE(judge_power_target(short_run, {}, findings).judged);
  EXPECT_TRUE(has(findings, "power.not_judged", "warn"));
}

TEST(PowerTarget, JudgeStressJudgesItOnlyUnderThePowerLoad) {
  const GpuStressVerdict power = judge_stress({power_run(520, 1410)}, {})[0];
  EXPECT_EQ(power.verdict, Grade::Fail);
  EXPECT_EQ(power.mode, StressMode::Power);
  EXPECT_TRUE(has(power.findings, "power.target_not_reached", "fail"));
  const GpuStressVerdict sustained = judge_stress({power_run(520, 1410, StressMode::Sustained)}, {})[0];
  EXPECT_FALSE(has(sustained.findings, "power.target_not_reached", "fail"));
  EXPECT_EQ(sustained.verdict, Grade::Pass);
}

TEST(ClockCollapse, AClockUnderHalfItsSteadyValueWhileLoadedFails) {
  GpuStressRecord gpu = power_run(695, 1755);
  gpu.telemetry[30].sm_clock_mhz = 810;  // HW slowdown halves the clock or worse
  std::vector<StressFinding> findings;
  judge_clock_collapse(gpu, {}, findings);
  ASSERT_TRUE(has(findings, "clock.collapse", "fail"));
  EXPECT_NE(findings.front().message.find("to 810 MHz at 30 s"), std::string::npos) << findings.front().message;
  EXPECT_EQ(judge_stress({gpu}, {})[0].verdict, Grade::Fail);
}

TEST(ClockCollapse, APowerCapDipTheWarmUpAndTheTailAreNoCollapse) {
  GpuStressRecord gpu = power_run(695, 1755);
  gpu.telemetry[20].sm_clock_mhz = 1200;  // a power-cap dip: 68 % of steady
  gpu.telemetry[2].sm_clock_mhz = 345;    // still ramping
  gpu.telemetry[59].sm_clock_mhz = 345;   // this GPU finished first and idles
  std::vector<StressFinding> findings;
  judge_clock_collapse(gpu, {}, findings);
  EXPECT_TRUE(findings.empty()) << findings.front().message;
}

// The pulse load: 3 s of warm-up windows at 760 TFLOP/s, then bursts at each period.
GpuStressRecord pulse_run(std::size_t bursts_per_period, double tflops) {
  GpuStressRecord gpu;
  gpu.index = 1;
  gpu.mode = StressMode::Pulse;
  gpu.windows = {{0, 1, 755}, {1, 2, 760}, {2, 3, 762}};
  double t = 3;
  for (double period : kPulsePeriodsMs) {
    for (std::size_t b = 0; b < bursts_per_period; ++b, t += period / 1000) gpu.bursts.push_back({period, t, tflops + (b % 5)});
  }
  gpu.gemm_runs = 5000;
  return gpu;
}

std::vector<PulseBurst*> bursts_of(GpuStressRecord& gpu, double period) {
  std::vector<PulseBurst*> found;
  for (PulseBurst& b : gpu.bursts) {
    if (b.period_ms == period) found.push_back(&b);
  }
  return found;
}

TEST(Pulse, SteadyBurstsAtEveryPeriodPassWithTheirFigures) {
  std::vector<StressFinding> findings;
  const PulseResult r = judge_pulse(pulse_run(300, 770), kPulsePeriodsMs, {}, findings);
  EXPECT_EQ(r.steady_tflops, 760);
  ASSERT_EQ(r.periods.size(), 3u);
  for (const PulsePeriodResult& p : r.periods) {
    EXPECT_EQ(p.bursts, 300u);
    EXPECT_EQ(p.collapsed, 0u);
    EXPECT_EQ(p.slowest_tflops, 770);
  }
  EXPECT_EQ(std::count_if(findings.begin(), findings.end(), [](const StressFinding& f) { return f.check == "pulse.period"; }), 3);
  EXPECT_NE(findings[0].message.find("10 ms period: 300 bursts"), std::string::npos) << findings[0].message;
  EXPECT_NE(findings[2].message.find("1 s period"), std::string::npos) << findings[2].message;
  EXPECT_EQ(judge_stress({pulse_run(300, 770)}, {})[0].verdict, Grade::Pass);
}

TEST(Pulse, BurstsThatCollapseFailTheirPeriodAndOneAloneWarns) {
  GpuStressRecord gpu = pulse_run(300, 770);
  for (int b = 0; b < 4; ++b) bursts_of(gpu, 10)[b * 50]->tflops = 300;  // 4 of 300 (1.3 %) under half of 760
  bursts_of(gpu, 1000)[7]->tflops = 350;                                  // 1 of 300
  std::vector<StressFinding> findings;
  const PulseResult r = judge_pulse(gpu, kPulsePeriodsMs, {}, findings);
  EXPECT_EQ(r.periods[0].collapsed, 4u);
  EXPECT_EQ(r.periods[2].collapsed, 1u);
  EXPECT_TRUE(has(findings, "pulse.clock_collapse", "fail"));
  EXPECT_TRUE(has(findings, "pulse.clock_collapse", "warn"));
  EXPECT_EQ(judge_stress({gpu}, {})[0].verdict, Grade::Fail);
}

TEST(Pulse, TwoCollapsesAmongManyBurstsOnlyWarn) {
  GpuStressRecord gpu = pulse_run(1000, 770);
  bursts_of(gpu, 10)[10]->tflops = 200;
  bursts_of(gpu, 10)[20]->tflops = 200;  // 0.2 %
  std::vector<StressFinding> findings;
  judge_pulse(gpu, kPulsePeriodsMs, {}, findings);
  EXPECT_TRUE(has(findings, "pulse.clock_collapse", "warn"));
  EXPECT_FALSE(has(findings, "pulse.clock_collapse", "fail"));
}

TEST(Pulse, APeriodTheRunNeverReachedWarnsAndDriftIsNotJudged) {
  GpuStressRecord gpu = pulse_run(100, 770);
  gpu.bursts.erase(std::remove_if(gpu.bursts.begin(), gpu.bursts.end(), [](const PulseBurst& b) { return b.period_ms == 1000; }),
                   gpu.bursts.end());
  gpu.windows = {{0, 1, 790}, {1, 2, 700}, {11, 12, 600}};  // warm-up windows only: no drift to judge
  const GpuStressVerdict v = judge_stress({gpu}, {})[0];
  EXPECT_TRUE(has(v.findings, "pulse.not_run", "warn"));
  EXPECT_FALSE(has(v.findings, "performance.drift", "fail"));
}

}  // namespace
}  // namespace gpubench
