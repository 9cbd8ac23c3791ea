// The verdict rule on single metrics, and every verdict kind on files derived from a recorded H200 run.
#include "harness/verdict/metric_verdict.hpp"

#include <gtest/gtest.h>
#include <nvml.h>

#include <cmath>

#include "harness/results/results_io.hpp"
#include "tests/unit/metric_fixtures.hpp"

namespace gpubench {
namespace {

const std::string kCheck = std::string(GPUBENCH_TEST_DATA) + "/check";

Metric measured(std::vector<double> samples, Better better = Better::Higher) {
  return measured_metric("x/y/gpu0/bandwidth", "GB/s", better, std::move(samples));
}

BaselineMetric expected(double value, double spread, Better better = Better::Higher) {
  return expected_metric(value, spread, 5, better, "GB/s", 0.03);
}

TEST(Verdict, WithinToleranceIsAPassEvenWhenSignificant) {
  EXPECT_EQ(judge_metric(measured({98, 98, 98}), "m", expected(100, 0.1)).kind, VerdictKind::Pass);
}

TEST(Verdict, PastToleranceAndNoiseIsARegressionOrImprovementByDirection) {
  EXPECT_EQ(judge_metric(measured({90, 90.1, 89.9}), "m", expected(100, 0.5)).kind, VerdictKind::Regression);
  EXPECT_EQ(judge_metric(measured({110, 110.1, 109.9}), "m", expected(100, 0.5)).kind, VerdictKind::Improvement);
  // For a latency, lower is better: the same numbers flip.
  EXPECT_EQ(judge_metric(measured({90, 90.1, 89.9}, Better::Lower), "m", expected(100, 0.5, Better::Lower)).kind,
            VerdictKind::Improvement);
  EXPECT_EQ(judge_metric(measured({110, 110.1, 109.9}, Better::Lower), "m", expected(100, 0.5, Better::Lower)).kind,
            VerdictKind::Regression);
}

TEST(Verdict, PastToleranceButWithinNoiseIsNoisy) {
  // A noisy run: 10 % spread within the run.
  EXPECT_EQ(judge_metric(measured({80, 94, 108}), "m", expected(100, 0.5)).kind, VerdictKind::Noisy);
  // A noisy baseline and a noisy run: past the band the baseline gates at (7.3 x 1 %), within it combined with the
  // run's own spread.
  EXPECT_EQ(judge_metric(measured({82, 91, 100}), "m", expected(100, 1)).kind, VerdictKind::Noisy);
}

// A baseline whose runs vary by 4 units gates at its noise band, 7.3 x 4 = 29 % from five runs, not at its 3 %
// tolerance: -5 % passes, and the reason says what it was held to.
TEST(Verdict, ANoisyBaselineGatesAtItsBandAndSaysSo) {
  const MetricVerdict within = judge_metric(measured({95, 95, 95}), "m", expected(100, 4));
  EXPECT_EQ(within.kind, VerdictKind::Pass);
  ASSERT_TRUE(within.gated_at);
  EXPECT_TRUE(within.gated_at->set_by_noise);
  EXPECT_NEAR(within.gated_at->fraction, 6.6201 * std::sqrt(1.2) * 4 / 100, 1e-4);
  EXPECT_EQ(within.reason, "-5.0 % against 100 GB/s, within the 29.0 % it gates at (its noise; tolerance 3.0 %)");
  const MetricVerdict halved = judge_metric(measured({50, 50.1, 49.9}), "m", expected(100, 4));
  EXPECT_EQ(halved.kind, VerdictKind::Regression) << halved.reason;
  EXPECT_NE(halved.reason.find("past the 29.0 % it gates at (its noise; tolerance 3.0 %) and past what noise explains"),
            std::string::npos)
      << halved.reason;
  const MetricVerdict steady = judge_metric(measured({95, 95, 95}), "m", expected(100, 0.1));
  ASSERT_TRUE(steady.gated_at);
  EXPECT_FALSE(steady.gated_at->set_by_noise);
  EXPECT_DOUBLE_EQ(steady.gated_at->fraction, 0.03);
}

// The baseline side of the band is a prediction interval for one run: t(runs - 1) x spread x sqrt(1 + 1/runs).
TEST(Verdict, TheBaselineBandWidensWithFewRuns) {
  BaselineMetric b = expected(100, 1);
  b.runs = 3;
  EXPECT_NEAR(judge_metric(measured({100, 100, 100}), "m", b).noise, 19.206 * std::sqrt(4.0 / 3) / 100, 1e-4);
  b.runs = 10;
  EXPECT_NEAR(judge_metric(measured({100, 100, 100}), "m", b).noise, 4.0942 * std::sqrt(1.1) / 100, 1e-4);
  // A one-run baseline (check --against RUN) takes that run's spread as known: 3 sigma.
  b.runs = 1;
  EXPECT_NEAR(judge_metric(measured({100, 100, 100}), "m", b).noise, 3 * std::sqrt(2.0) / 100, 1e-9);
}

TEST(Verdict, AMetricThatDoesNotGateIsInformationalWhateverItMeasured) {
  BaselineMetric b = expected(100, 0.5);
  b.gates = false;
  b.gate_reason = "run-to-run spread 4.1 % over 10 runs: noise alone moves it up to 18 %, over 1.5 x its 15 % tolerance";
  for (double value : {50.0, 100.0, 150.0}) {
    const MetricVerdict v = judge_metric(measured({value, value, value}), "m", b);
    EXPECT_EQ(v.kind, VerdictKind::Informational) << value;
    EXPECT_DOUBLE_EQ(*v.value, value);
    EXPECT_DOUBLE_EQ(*v.expected, 100);
    EXPECT_NEAR(v.change, value / 100 - 1, 1e-12);
    EXPECT_EQ(v.reason.rfind("not gating: " + b.gate_reason + "; measured ", 0), 0u) << v.reason;
  }
  EXPECT_NE(judge_metric(measured({50, 50, 50}), "m", b).reason.find("-50.0 % against 100 GB/s"), std::string::npos);
}

TEST(Verdict, InformationalNeverFailsACheckAndRanksAfterMissing) {
  CheckReport report;
  report.verdicts.push_back({"m", VerdictKind::Informational});
  report.verdicts.push_back({"p", VerdictKind::Pass});
  EXPECT_TRUE(report.passed());
  EXPECT_EQ(report.count(VerdictKind::Informational), 1);
  EXPECT_EQ(std::string(to_string(VerdictKind::Informational)), "informational");
  EXPECT_LT(severity_rank(VerdictKind::Missing), severity_rank(VerdictKind::Informational));
  EXPECT_LT(severity_rank(VerdictKind::Informational), severity_rank(VerdictKind::Improvement));
}

TEST(Verdict, AThermalOrHardwareSlowdownIsMentionedAndThePowerCapIsNot) {
  Metric m = measured({90, 90, 90});
  m.throttled = true;
  m.clock_event_reasons = nvmlClocksEventReasonSwPowerCap;  // every sustained load of a power-capped GPU
  EXPECT_EQ(judge_metric(m, "m", expected(100, 0.5)).reason.find("slowdown"), std::string::npos);
  m.clock_event_reasons |= nvmlClocksThrottleReasonHwThermalSlowdown;
  EXPECT_NE(judge_metric(m, "m", expected(100, 0.5)).reason.find("thermal or hardware slowdown"), std::string::npos);
}

TEST(Verdict, EveryKindAppearsOnTheDerivedH200Files) {
  const Baseline baseline = read_baseline_file(kCheck + "/baseline.json");
  const ResultsDocument run = read_results_file(kCheck + "/mixed.json");
  const CheckReport report = check_against_baseline(run, "mixed.json", baseline, "baseline.json");
  std::map<std::string, VerdictKind> by_id;
  for (const MetricVerdict& v : report.verdicts) by_id[v.id] = v.kind;
  EXPECT_EQ(by_id.at("memory/read/1GiB/gpu0/bandwidth"), VerdictKind::Pass);
  EXPECT_EQ(by_id.at("memory/write/1GiB/gpu0/bandwidth"), VerdictKind::Regression);
  EXPECT_EQ(by_id.at("memory/copy/1GiB/gpu0/bandwidth"), VerdictKind::Improvement);
  EXPECT_EQ(by_id.at("memory/scale/1GiB/gpu0/bandwidth"), VerdictKind::Noisy);
  EXPECT_EQ(by_id.at("memory/add/1GiB/gpu0/bandwidth"), VerdictKind::Missing);
  EXPECT_EQ(by_id.at("memory/triad/1GiB/gpu0/bandwidth"), VerdictKind::Failed);
  EXPECT_EQ(by_id.at("memory/memcpy_d2d/1GiB/gpu0/bandwidth"), VerdictKind::Informational)
      << "-9 %, but it is too noisy to gate";
  EXPECT_EQ(by_id.at("memory/read/4GiB/gpu0/bandwidth"), VerdictKind::New);
  EXPECT_FALSE(report.passed());
  EXPECT_EQ(report.verdicts.front().kind, VerdictKind::Failed) << "worst first";
}

TEST(Verdict, AHealthyRerunPasses) {
  const Baseline baseline = read_baseline_file(kCheck + "/baseline.json");
  for (int i = 1; i <= 10; ++i) {
    const std::string file = "/healthy_" + std::to_string(i) + ".json";
    const CheckReport report = check_against_baseline(read_results_file(kCheck + file), file, baseline, "baseline.json");
    EXPECT_TRUE(report.passed()) << file;
    EXPECT_EQ(report.count(VerdictKind::Pass), 6) << file;
    EXPECT_EQ(report.count(VerdictKind::Informational), 1) << file << ": memcpy_d2d";
  }
}

}  // namespace
}  // namespace gpubench
