// Confirm before alarming: a regression stands only when fresh processes measure it again; the document
// keeps both measurements, and documents without any load as before.
#include "harness/verdict/confirmation.hpp"

#include <gtest/gtest.h>

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
  apply_confirmations(report, d, baseline);
  return report;
}

TEST(Confirmation, ARegressionNotYetMeasuredAgainIsASuspect) {
  const Baseline baseline = steady_baseline();
  ResultsDocument d = run_measuring(3900);  // -10.6 %
  const CheckReport report = check_against_baseline(d, "r.json", baseline, "b.json");
  ASSERT_EQ(report.verdicts[0].kind, VerdictKind::Regression);
  EXPECT_EQ(unconfirmed_regressions(report, d), std::vector<std::string>{kId});
  measure_again(d, {3905, 3898, 3902});
  EXPECT_TRUE(unconfirmed_regressions(report, d).empty());
  EXPECT_TRUE(unconfirmed_regressions(check_against_baseline(run_measuring(4350), "r.json", baseline, "b.json"),
                                      run_measuring(4350)).empty());
}

TEST(Confirmation, ARegressionThatReproducesStands) {
  const CheckReport report = judged_after_measuring_again({3905, 3898, 3902});
  ASSERT_EQ(report.verdicts[0].kind, VerdictKind::Regression);
  EXPECT_NE(report.verdicts[0].reason.find("confirmed, measured again in 3 fresh processes: median 3902 GB/s (-10.5 %)"),
            std::string::npos)
      << report.verdicts[0].reason;
  EXPECT_FALSE(report.passed());
}

TEST(Confirmation, ARegressionThatDoesNotReproduceIsNoisyAndPasses) {
  const CheckReport report = judged_after_measuring_again({4355, 4362, 4349});  // the first was one slow process
  ASSERT_EQ(report.verdicts[0].kind, VerdictKind::Noisy);
  EXPECT_EQ(report.verdicts[0].reason.rfind("did not reproduce: ", 0), 0u) << report.verdicts[0].reason;
  EXPECT_NE(report.verdicts[0].reason.find("median 4355 GB/s (-0.1 %), pass"), std::string::npos) << report.verdicts[0].reason;
  EXPECT_EQ(*report.verdicts[0].value, 3900) << "the verdict still shows the first measurement";
  EXPECT_TRUE(report.passed());
}

TEST(Confirmation, OneSlowReMeasurementOfThreeDoesNotConfirm) {
  const CheckReport report = judged_after_measuring_again({4358, 3901, 4361});
  EXPECT_EQ(report.verdicts[0].kind, VerdictKind::Noisy);
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
