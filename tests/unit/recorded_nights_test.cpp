// A healthy node passes its nightly check, on real data: three nightly-recipe runs of a lent one-H200 node
// (tests/data/nightly_h200x1), judged against the baseline of that node as it was then, and against the shipped
// one-H200 baseline, made later on another H200 node. A rule that turns any of them into a failure is a false
// alarm on a healthy GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "benchmarks/catalogue.hpp"
#include "harness/baseline/baseline_document.hpp"
#include "harness/baseline/node_bound_gating.hpp"
#include "harness/results/results_io.hpp"
#include "harness/verdict/confirmation.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {
namespace {

const std::string kNights = std::string(GPUBENCH_TEST_DATA) + "/nightly_h200x1/";

CheckReport judged(const ResultsDocument& night, const Baseline& baseline) {
  CheckReport report = check_against_baseline(night, "night.json", baseline, "baseline.json");
  apply_confirmations(report, night);
  return report;
}

TEST(RecordedNights, EveryHealthyH200NightPassesWithNothingMissing) {
  const Baseline baseline = read_baseline_file(kNights + "baseline.json");
  for (const char* name : {"night1.json", "night2.json", "night3.json"}) {
    const ResultsDocument night = read_results_file(kNights + name);
    const CheckReport report = judged(night, baseline);
    EXPECT_TRUE(report.passed()) << name;
    EXPECT_EQ(report.count(VerdictKind::Regression), 0) << name;
    EXPECT_EQ(report.count(VerdictKind::Failed), 0) << name;
    EXPECT_EQ(report.count(VerdictKind::Missing), 0) << name << ": the quick suite measures every baseline row";
    EXPECT_LE(report.count(VerdictKind::Noisy), 2) << name;
    EXPECT_GE(report.count(VerdictKind::Pass), 55) << name;
  }
}

// Night 2's BF16 GEMM first read -5.1 % (a process whose tuning chose a slower algorithm) and its both-ways PCIe
// -6.0 %, both past their noise; `check --confirm 3` measured each again in three fresh processes and kept those measurements in the file.
TEST(RecordedNights, TheNightWhoseSuspectsWereMeasuredAgainPassesOnTheirMeasurements) {
  const Baseline baseline = read_baseline_file(kNights + "baseline.json");
  const ResultsDocument night = read_results_file(kNights + "night2.json");
  ASSERT_EQ(night.confirmations.size(), 2u);
  const CheckReport first = check_against_baseline(night, "night2.json", baseline, "baseline.json");
  std::vector<std::string> suspects = unconfirmed_suspects(first, ResultsDocument{});
  std::sort(suspects.begin(), suspects.end());
  EXPECT_EQ(suspects, (std::vector<std::string>{"gemm/bf16/8192x8192x8192/gpu0/tflops",
                                                "pcie/bidirectional_h2d/pinned/64MiB/gpu0/bandwidth"}));
  EXPECT_FALSE(first.passed()) << "judged on the first measurements alone, both were regressions";
  const CheckReport report = judged(night, baseline);
  EXPECT_TRUE(report.passed());
  for (const MetricVerdict& v : report.verdicts) {
    if (v.id == suspects[0]) {
      EXPECT_EQ(v.kind, VerdictKind::Noisy);
      EXPECT_EQ(v.reason.rfind("did not reproduce in 3 fresh processes", 0), 0u) << v.reason;
    }
  }
}

// The one-H200 baseline shipped on 2026-12-02 (tests/data/baselines_20261202), of the nights' GEMM method, was made
// on another H200 (another GPU UUID), whose host launched and synchronised up to 35 % faster: judged as if made on their node, 11 of the first node's 13 healthy runs (night 2 among these three)
// failed on host latencies, and so did a night of a third node (night_another_node.json: launch with a sync at
// the end, 10,000 kernels, +38.5 %). There the host-bound figures are informational, with the reason, and every
// night passes.
TEST(RecordedNights, EveryNightPassesTheBaselineOfAnotherNode) {
  const Baseline shipped =
      read_baseline_file(std::string(GPUBENCH_TEST_DATA) + "/baselines_20261202/nvidia-h200-x1.json");
  for (const char* name : {"night1.json", "night2.json", "night3.json", "night_another_node.json"}) {
    const ResultsDocument night = read_results_file(kNights + name);
    ASSERT_FALSE(made_on_this_node(shipped, gpu_uuids_of(night.environment))) << name << ": meant to be another node";
    const CheckReport report = judged(night, shipped);
    EXPECT_TRUE(report.passed()) << name;
    EXPECT_EQ(report.count(VerdictKind::Missing), 0) << name;
    EXPECT_GE(report.count(VerdictKind::Pass), 50) << name << ": memory, GEMM, cache and pinned PCIe still gate";
    for (const MetricVerdict& v : report.verdicts) {
      if (!node_bound(v.id)) continue;
      EXPECT_EQ(v.kind, VerdictKind::Informational) << name << ": " << v.id;
      if (shipped.metrics.at(v.id).gates) {  // a figure too noisy to gate anywhere keeps that first reason
        EXPECT_NE(v.reason.find("the baseline was made on other nodes"), std::string::npos) << v.reason;
      }
    }
  }
}

}  // namespace
}  // namespace gpubench
