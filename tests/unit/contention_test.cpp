// A slowdown names its cause: the other processes a run recorded on a GPU during a family, read back from the results
// document and put beside the verdicts of that family's figures on that GPU. On the recorded run under a competing
// BF16 GEMM (tests/data/slowdown_h200x1/heavy.json, made before processes were recorded), with the process it had
// recorded as a run now records it.
#include <gtest/gtest.h>

#include <string>

#include "harness/baseline/baseline_document.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"
#include "harness/verdict/confirmation.hpp"
#include "harness/verdict/contention.hpp"

namespace gpubench {
namespace {

const std::string kData = GPUBENCH_TEST_DATA;

ResultsDocument heavy_with_process() {
  ResultsDocument run = read_results_file(kData + "/slowdown_h200x1/heavy.json");
  for (FamilyRun& family : run.families) {
    if (family.family != "gemm") continue;
    family.telemetry["gpu0"]["processes"] = nlohmann::json::array(
        {{{"pid", 4242}, {"name", "python3"}, {"kind", "compute"}, {"used_memory_bytes", 20ull << 30},
          {"first_seen_s", 0.25}, {"last_seen_s", 30.0}, {"samples", 120}}});
  }
  return run;
}

const Metric& metric(const ResultsDocument& run, const std::string& id) {
  for (const Metric& m : run.metrics) {
    if (m.id == id) return m;
  }
  throw std::runtime_error("no " + id);
}

TEST(Contention, NamesTheProcessBesideTheFiguresOfItsFamilyAndGpu) {
  const ResultsDocument run = heavy_with_process();
  EXPECT_EQ(contention_during(run, metric(run, "gemm/bf16/8192x8192x8192/gpu0/tflops")),
            "another process (pid 4242, python3, 20.0 GiB) used GPU 0 during gemm");
  EXPECT_EQ(contention_during(run, metric(run, "memory/triad/1GiB/gpu0/bandwidth")), "") << "another family";
  EXPECT_EQ(contention_in(run).size(), 1u);
  EXPECT_TRUE(contention_in(read_results_file(kData + "/slowdown_h200x1/heavy.json")).empty())
      << "a document that recorded no processes names none";
}

TEST(Contention, ARegressionUnderContentionIsToldApartAndStillFails) {
  const ResultsDocument run = heavy_with_process();
  const Baseline baseline = read_baseline_file(kData + "/slowdown_h200x1/baseline.json");
  CheckReport report = check_against_baseline(run, "heavy.json", baseline, "baseline.json");
  apply_confirmations(report, run);
  mark_contention(report, run);
  const MetricVerdict& gemm = report.verdicts.front();
  ASSERT_EQ(gemm.id, "gemm/bf16/8192x8192x8192/gpu0/tflops");
  EXPECT_EQ(gemm.kind, VerdictKind::Regression);
  EXPECT_EQ(verdict_text(gemm), "regression under contention");
  EXPECT_EQ(gemm.reason.rfind("under contention: another process (pid 4242, python3, 20.0 GiB) used GPU 0 during gemm; ", 0),
            0u) << gemm.reason;
  EXPECT_FALSE(report.passed()) << "exit codes stay as documented: a regression fails the check";
  for (const MetricVerdict& v : report.verdicts) {
    if (v.id.rfind("memory/", 0) == 0) EXPECT_EQ(v.contention, "") << v.id;
  }
}

TEST(Contention, RecordedProcessesSurviveTheDocumentAndABadOneIsRefused) {
  const ResultsDocument run = heavy_with_process();
  const ResultsDocument again = results_from_json(to_json(run), "again.json");
  EXPECT_EQ(contention_in(again), contention_in(run));
  nlohmann::json bad = to_json(run);
  bad["families"][1]["telemetry"]["gpu0"]["processes"][0]["pid"] = "4242";
  try {
    results_from_json(bad, "bad.json");
    FAIL() << "a pid that is not a number was read";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("families[1].telemetry.gpu0.processes[0].pid"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace gpubench
