// Confirm before alarming: a regression stands only when fresh processes measure it again; the document
// keeps both measurements, and documents without any load as before.
#include "harness/verdict/confirmation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "harness/baseline/baseline_document.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {
namespace {

const std::string kId = "memory/triad/1GiB/gpu0/bandwidth";

Metric measurement(double value) {
  Metric m;
  m.id = kId;
  m.benchmark = "memory/triad/1GiB/gpu0";
  m.family = "memory";
  m.unit = "GB/s";
  m.samples = {value, value * 1.001, value * 0.999};
  m.statistics = summarize(m.samples);
  m.value = m.statistics.median;
  return m;
}

// A steady metric from ten runs: 4360 GB/s, 0.2 % between runs, 3 % tolerance.
Baseline steady_baseline() {
  Baseline b;
  BaselineMetric m;
  m.expected = 4360;
  m.spread = 8.7;
  m.runs = 10;
  m.unit = "GB/s";
  m.tolerance = 0.03;
  b.metrics[kId] = m;
  return b;
}

ResultsDocument run_measuring(double value) {
  ResultsDocument d;
  d.run.id = "nightly";
  d.metrics.push_back(measurement(value));
  return d;
}

void measure_again(ResultsDocument& d, std::initializer_list<double> values) {
  Confirmation c{kId, {}};
  for (double v : values) c.measurements.push_back(measurement(v));
  d.confirmations.push_back(c);
}

// As `gpubench check` judges a run that measured 3900 GB/s (-10.6 % from the steady baseline) and then `values`
// in fresh processes.
CheckReport judged_after_measuring_again(std::initializer_list<double> values) {
  const Baseline baseline = steady_baseline();
  ResultsDocument d = run_measuring(3900);
  measure_again(d, values);
  CheckReport report = check_against_baseline(d, "r.json", baseline, "b.json");
  apply_confirmations(report, d);
  return report;
}

TEST(Confirmation, ARegressionNotYetMeasuredAgainIsASuspect) {
  const Baseline baseline = steady_baseline();
  ResultsDocument d = run_measuring(3900);  // -10.6 %
  const CheckReport report = check_against_baseline(d, "r.json", baseline, "b.json");
  ASSERT_EQ(report.verdicts[0].kind, VerdictKind::Regression);
  EXPECT_EQ(unconfirmed_suspects(report, d), std::vector<std::string>{kId});
  measure_again(d, {3905, 3898, 3902});
  EXPECT_TRUE(unconfirmed_suspects(report, d).empty());
  EXPECT_TRUE(unconfirmed_suspects(check_against_baseline(run_measuring(4350), "r.json", baseline, "b.json"),
                                      run_measuring(4350)).empty());
}

TEST(Confirmation, ARegressionThatReproducesStands) {
  const CheckReport report = judged_after_measuring_again({3905, 3898, 3902});
  ASSERT_EQ(report.verdicts[0].kind, VerdictKind::Regression);
  // One change per reason, the one of the value shown (the fresh processes' median); the first without one.
  EXPECT_EQ(report.verdicts[0].reason.rfind("-10.5 % against 4360 GB/s: ", 0), 0u) << report.verdicts[0].reason;
  EXPECT_NE(report.verdicts[0].reason.find("; confirmed in 3 fresh processes (the run measured 3900 GB/s first, "
                                           "regression there)"),
            std::string::npos)
      << report.verdicts[0].reason;
  EXPECT_FALSE(report.passed());
}

TEST(Confirmation, ARegressionThatDoesNotReproduceIsNoisyAndPasses) {
  const CheckReport report = judged_after_measuring_again({4355, 4362, 4349});  // the first was one slow process
  ASSERT_EQ(report.verdicts[0].kind, VerdictKind::Noisy);
  EXPECT_EQ(report.verdicts[0].reason,
            "did not reproduce in 3 fresh processes (the run measured 3900 GB/s first, regression there): -0.1 % "
            "against 4360 GB/s, within the 3.0 % tolerance");
  // The fresh processes decide, so the verdict shows their median, with the first measurement beside it.
  EXPECT_EQ(*report.verdicts[0].value, 4355);
  EXPECT_EQ(*report.verdicts[0].first_value, 3900);
  EXPECT_EQ(report.verdicts[0].remeasured_processes, 3);
  EXPECT_TRUE(report.passed());
}

TEST(Confirmation, OneSlowReMeasurementOfThreeDoesNotConfirm) {
  const CheckReport report = judged_after_measuring_again({4358, 3901, 4361});
  EXPECT_EQ(report.verdicts[0].kind, VerdictKind::Noisy);
}

// A run whose repetitions scattered: median 4200 GB/s (-3.7 %, past the 3 % tolerance), within its own noise.
ResultsDocument scattered_run(double low, double median, double high) {
  ResultsDocument d = run_measuring(median);
  d.metrics[0].samples = {low, median, high};
  d.metrics[0].statistics = summarize(d.metrics[0].samples);
  d.metrics[0].value = d.metrics[0].statistics.median;
  return d;
}

TEST(Confirmation, ANoisyFigureOnTheWorseSideIsASuspectToo) {
  const Baseline baseline = steady_baseline();
  const ResultsDocument slower = scattered_run(3900, 4200, 4350);
  const CheckReport report = check_against_baseline(slower, "r.json", baseline, "b.json");
  ASSERT_EQ(report.verdicts[0].kind, VerdictKind::Noisy) << report.verdicts[0].reason;
  EXPECT_TRUE(report.verdicts[0].worse);
  EXPECT_NE(report.verdicts[0].reason.find("; measure it again in fresh processes (check --confirm 3)"), std::string::npos)
      << report.verdicts[0].reason;
  EXPECT_EQ(unconfirmed_suspects(report, slower), std::vector<std::string>{kId});

  const ResultsDocument faster = scattered_run(4370, 4520, 4820);  // +3.7 %: noisy, but no suspect
  const CheckReport better = check_against_baseline(faster, "r.json", baseline, "b.json");
  ASSERT_EQ(better.verdicts[0].kind, VerdictKind::Noisy) << better.verdicts[0].reason;
  EXPECT_FALSE(better.verdicts[0].worse);
  EXPECT_NE(better.verdicts[0].reason.find("re-run with more --repetitions"), std::string::npos) << better.verdicts[0].reason;
  EXPECT_TRUE(unconfirmed_suspects(better, faster).empty());
}

// As `gpubench check` judges the scattered run at -3.7 % and then `values` in fresh processes.
CheckReport noisy_run_judged_after_measuring_again(std::initializer_list<double> values) {
  const Baseline baseline = steady_baseline();
  ResultsDocument d = scattered_run(3900, 4200, 4350);
  measure_again(d, values);
  CheckReport report = check_against_baseline(d, "r.json", baseline, "b.json");
  apply_confirmations(report, d);
  return report;
}

TEST(Confirmation, ANoisySlowdownThatEveryFreshProcessShowsIsARegression) {
  const CheckReport report = noisy_run_judged_after_measuring_again({4190, 4205, 4198});
  ASSERT_EQ(report.verdicts[0].kind, VerdictKind::Regression) << report.verdicts[0].reason;
  EXPECT_EQ(report.verdicts[0].reason.rfind("confirmed when measured again in 3 fresh processes (the run measured 4200 "
                                            "GB/s first, noisy there): -3.7 % against 4360 GB/s: past the tolerance",
                                            0),
            0u)
      << report.verdicts[0].reason;
  EXPECT_TRUE(report.verdicts[0].worse);
  EXPECT_FALSE(report.passed());
}

TEST(Confirmation, ANoisySlowdownThatFreshProcessesDoNotShowStaysNoisy) {
  const CheckReport report = noisy_run_judged_after_measuring_again({4355, 4362, 4349});
  ASSERT_EQ(report.verdicts[0].kind, VerdictKind::Noisy);
  EXPECT_NE(report.verdicts[0].reason.find("(the run measured 4200 GB/s first, noisy there): -0.1 % against 4360 GB/s, "
                                           "within"),
            std::string::npos)
      << report.verdicts[0].reason;
  EXPECT_EQ(report.verdicts[0].reason.find("measure it again"), std::string::npos) << "it was: " << report.verdicts[0].reason;
  EXPECT_TRUE(report.passed());
}

// Recorded on a lent H200 (2026-12-02): memory and the 8192^3 BF16/FP8 GEMMs while another process ran four 4096^2
// BF16 products every 6 ms. BF16 lost 10.8 % against the shipped one-H200 baseline, but its three repetitions
// scattered (580-636 TFLOP/s), so the run alone calls it noisy. Measured again (values as a GPU that stays that
// slow would give; the device run of `check --confirm` on this load is still to be made), it is a regression.
const std::string kRecorded = std::string(GPUBENCH_TEST_DATA) + "/slowdown_h200x1/";
const std::string kBf16 = "gemm/bf16/8192x8192x8192/gpu0/tflops";
const std::string kFp8 = "gemm/fp8_e4m3/8192x8192x8192/gpu0/tflops";

MetricVerdict verdict_of(const CheckReport& report, const std::string& id) {
  for (const MetricVerdict& v : report.verdicts) {
    if (v.id == id) return v;
  }
  throw std::runtime_error("no verdict on " + id);
}

CheckReport judged_as_recorded(const std::string& file) {
  const ResultsDocument d = read_results_file(kRecorded + file);
  const Baseline baseline = read_baseline_file(kRecorded + "baseline.json");
  CheckReport report = check_against_baseline(d, file, baseline, "baseline.json");
  apply_confirmations(report, d);
  return report;
}

// FP8 8192^3 moved 2.7 % between that baseline's runs and gates at the 12 % its noise allows: the heavy load's FP8
// -46 % is a regression too (not measured again on the device, so not confirmed), where it was once not judged.
TEST(Confirmation, OnAnH200AHealthyRunPassedAndAHeavyLoadWasAConfirmedRegression) {
  EXPECT_TRUE(judged_as_recorded("healthy.json").passed());
  const CheckReport heavy = judged_as_recorded("heavy.json");
  EXPECT_FALSE(heavy.passed());
  EXPECT_EQ(heavy.count(VerdictKind::Regression), 2);
  EXPECT_EQ(verdict_of(heavy, kFp8).kind, VerdictKind::Regression) << verdict_of(heavy, kFp8).reason;
  EXPECT_TRUE(verdict_of(heavy, kFp8).gated_at->set_by_noise);
  EXPECT_EQ(verdict_of(heavy, kBf16).kind, VerdictKind::Regression);
  EXPECT_NE(verdict_of(heavy, kBf16).reason.find("; confirmed in 2 fresh processes"), std::string::npos)
      << verdict_of(heavy, kBf16).reason;
}

TEST(Confirmation, ALightLoadsGemmSlowdownRecordedOnAnH200IsCaughtWhenMeasuredAgain) {
  ResultsDocument d = read_results_file(kRecorded + "light.json");
  const Baseline baseline = read_baseline_file(kRecorded + "baseline.json");
  const std::string bf16 = kBf16;
  CheckReport first = check_against_baseline(d, "light.json", baseline, "baseline.json");
  ASSERT_EQ(verdict_of(first, bf16).kind, VerdictKind::Noisy) << verdict_of(first, bf16).reason;
  // FP8 lost 14.5 % there, past the 11.5 % it gates at: a regression on the run alone (once not judged at all).
  EXPECT_EQ(verdict_of(first, kFp8).kind, VerdictKind::Regression) << verdict_of(first, kFp8).reason;
  std::vector<std::string> suspects = unconfirmed_suspects(first, d);
  std::sort(suspects.begin(), suspects.end());
  EXPECT_EQ(suspects, (std::vector<std::string>{bf16, kFp8})) << "both are measured again";

  Confirmation again{bf16, {}};
  for (double tflops : {606.0, 619.0, 611.0}) {
    Metric m = *std::find_if(d.metrics.begin(), d.metrics.end(), [&](const Metric& x) { return x.id == bf16; });
    m.value = tflops;
    again.measurements.push_back(m);
  }
  d.confirmations.push_back(again);
  CheckReport confirmed = check_against_baseline(d, "light.json", baseline, "baseline.json");
  apply_confirmations(confirmed, d);
  EXPECT_EQ(verdict_of(confirmed, bf16).kind, VerdictKind::Regression) << verdict_of(confirmed, bf16).reason;
  EXPECT_FALSE(confirmed.passed());
}

TEST(Confirmation, PooledMeasurementTakesOneSamplePerProcess) {
  Confirmation c{kId, {measurement(10), measurement(30), measurement(20)}};
  c.measurements[1].throttled = true;
  const Metric pooled = pooled_measurement(c);
  EXPECT_EQ(pooled.samples, (std::vector<double>{10, 30, 20}));
  EXPECT_DOUBLE_EQ(pooled.value, 20);
  EXPECT_TRUE(pooled.throttled);
}

TEST(Confirmation, TheDocumentKeepsBothMeasurements) {
  ResultsDocument d = read_results_file(std::string(GPUBENCH_TEST_DATA) + "/results_h200x1_memory_only.json");
  EXPECT_TRUE(d.confirmations.empty()) << "a document from before --confirm existed loads without any";
  const Metric first = d.metrics.at(0);
  Confirmation c{first.id, {first, first}};
  c.measurements[1].value *= 0.9;
  d.confirmations.push_back(c);
  const ResultsDocument back = results_from_json(to_json(d), "round-trip");
  ASSERT_EQ(back.confirmations.size(), 1u);
  EXPECT_EQ(back.confirmations[0].metric, first.id);
  ASSERT_EQ(back.confirmations[0].measurements.size(), 2u);
  EXPECT_DOUBLE_EQ(back.confirmations[0].measurements[1].value, first.value * 0.9);
  EXPECT_DOUBLE_EQ(back.metrics.at(0).value, first.value);
}

TEST(Confirmation, ABadConfirmationIsNamedByField) {
  ResultsDocument d = read_results_file(std::string(GPUBENCH_TEST_DATA) + "/results_h200x1_memory_only.json");
  nlohmann::json j = to_json(d);
  j["confirmations"] = nlohmann::json::array({{{"metric", d.metrics.at(0).id}, {"measurements", 5}}});
  try {
    results_from_json(j, "bad.json");
    FAIL() << "accepted measurements that are not an array";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("confirmations[0].measurements"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("bad.json"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace gpubench
