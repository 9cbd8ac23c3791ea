// Host-bound figures gate only on a node the baseline was made on: which node a baseline and a run are, and the
// verdicts that follow.
#include "harness/baseline/node_bound_gating.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "harness/baseline/baseline_builder.hpp"
#include "harness/report/baseline_summary.hpp"
#include "harness/report/check_console.hpp"
#include "harness/report/console_report.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/statistics.hpp"
#include "harness/verdict/metric_verdict.hpp"
#include "tests/unit/metric_fixtures.hpp"

namespace gpubench {
namespace {

const char* kLaunch = "launch/plain_sync_each/100/gpu0/time_per_kernel";
const char* kRead = "memory/read/1GiB/gpu0/bandwidth";

nlohmann::json environment_of(const std::vector<std::string>& uuids) {
  nlohmann::json gpus = nlohmann::json::array();
  for (std::size_t i = 0; i < uuids.size(); ++i) {
    gpus.push_back({{"index", i}, {"name", "NVIDIA H200"}, {"uuid", uuids[i]}});
  }
  return {{"gpus", gpus}};
}

// A baseline made on GPU-A: launch at 8.8 us, read at 4400 GB/s.
Baseline made_on_a() {
  Baseline b;
  b.kind = {"NVIDIA H200", 1, "single"};
  b.runs.push_back({"r1", "vm", "2026-12-02T08:37:26Z", {"GPU-A"}});
  b.metrics[kLaunch] = expected_metric(8.8, 8.8 * 0.01, 10, Better::Lower, "us", 0.15);
  b.metrics[kRead] = expected_metric(4400, 4400 * 0.01, 10, Better::Higher, "GB/s", 0.03);
  return b;
}

// A run on `gpu` whose host launches 20 % slower and whose memory reads `read` GB/s.
ResultsDocument run_on(const std::string& gpu, double read) {
  ResultsDocument run;
  run.run.host = "vm";
  run.environment = environment_of({gpu});
  run.metrics = {measured_metric(kLaunch, "us", Better::Lower, {8.8 * 1.2, 8.8 * 1.2, 8.8 * 1.2}),
                 measured_metric(kRead, "GB/s", Better::Higher, {read, read, read})};
  return run;
}

VerdictKind verdict_on(const CheckReport& report, const std::string& id) {
  for (const MetricVerdict& v : report.verdicts) {
    if (v.id == id) return v.kind;
  }
  ADD_FAILURE() << id << " not judged";
  return VerdictKind::Missing;
}

TEST(NodeBoundGating, ANodeIsKnownByItsGpusUuids) {
  EXPECT_EQ(gpu_uuids_of(environment_of({"GPU-A", "GPU-B"})), (std::vector<std::string>{"GPU-A", "GPU-B"}));
  EXPECT_TRUE(gpu_uuids_of(nlohmann::json::object()).empty());
  EXPECT_TRUE(gpu_uuids_of(environment_of({""})).empty()) << "an unknown UUID names no node";
  const Baseline baseline = made_on_a();
  EXPECT_TRUE(made_on_this_node(baseline, {"GPU-A"}));
  EXPECT_TRUE(made_on_this_node(baseline, {"GPU-B", "GPU-A"})) << "a run on more of the node's GPUs";
  EXPECT_FALSE(made_on_this_node(baseline, {"GPU-C"}));
  EXPECT_FALSE(made_on_this_node(baseline, {}));
  Baseline older = baseline;
  older.runs[0].gpus.clear();
  EXPECT_FALSE(made_on_this_node(older, {"GPU-A"})) << "a file that kept no UUIDs was made somewhere else";
}

TEST(NodeBoundGating, OnlyAHostFigureStopsGatingAndOnlyElsewhere) {
  const BaselineMetric launch = made_on_a().metrics.at(kLaunch);
  EXPECT_TRUE(as_judged_on_node(launch, kLaunch, true).gates);
  const BaselineMetric elsewhere = as_judged_on_node(launch, kLaunch, false);
  EXPECT_FALSE(elsewhere.gates);
  EXPECT_NE(elsewhere.gate_reason.find("the baseline was made on other nodes"), std::string::npos);
  EXPECT_TRUE(as_judged_on_node(made_on_a().metrics.at(kRead), kRead, false).gates);
  BaselineMetric wide = launch;
  wide.gates = false;
  wide.gate_reason = "run-to-run spread 7 %";
  EXPECT_EQ(as_judged_on_node(wide, kLaunch, false).gate_reason, wide.gate_reason) << "the first reason stands";
}

TEST(NodeBoundGating, AnotherNodesSlowerHostIsShownAndItsSlowerGpuStillFails) {
  const Baseline baseline = made_on_a();
  const CheckReport here = check_against_baseline(run_on("GPU-A", 4400), "here.json", baseline, "b.json");
  EXPECT_EQ(verdict_on(here, kLaunch), VerdictKind::Regression) << "on its own node a slower host is a finding";
  const CheckReport there = check_against_baseline(run_on("GPU-C", 4400), "there.json", baseline, "b.json");
  EXPECT_EQ(verdict_on(there, kLaunch), VerdictKind::Informational);
  EXPECT_TRUE(there.passed());
  const CheckReport slow_gpu = check_against_baseline(run_on("GPU-C", 4000), "slow.json", baseline, "b.json");
  EXPECT_EQ(verdict_on(slow_gpu, kRead), VerdictKind::Regression) << "the GPU's own figures gate on every node";
}

TEST(NodeBoundGating, TheCheckSaysWhereItsBaselineWasMade) {
  const Baseline baseline = made_on_a();
  std::ostringstream here, there;
  print_check_console(check_against_baseline(run_on("GPU-A", 4400), "here.json", baseline, "b.json"), here, false);
  print_check_console(check_against_baseline(run_on("GPU-C", 4400), "there.json", baseline, "b.json"), there, false);
  EXPECT_NE(here.str().find("(1 x NVIDIA H200 (single), made on this node)"), std::string::npos) << here.str();
  EXPECT_NE(there.str().find("made on other nodes: the host's launch, sync and allocation costs and pageable copies are "
                             "shown, not judged"),
            std::string::npos)
      << there.str();
}

TEST(NodeBoundGating, BaselineCreateCountsWhatGatesOnOtherNodes) {
  std::ostringstream out;
  print_baseline_summary(made_on_a(), out);
  const std::string table = out.str();
  EXPECT_NE(table.find("gating elsewhere"), std::string::npos) << table;
  // family, metrics, gating, informational, gating elsewhere
  EXPECT_NE(table.find("launch        1       1              0                 0"), std::string::npos) << table;
  EXPECT_NE(table.find("memory        1       1              0                 1"), std::string::npos) << table;
}

TEST(NodeBoundGating, BaselineCreateKeepsEachRunsGpusAndTheFileKeepsThem) {
  std::vector<SourcedResults> runs;
  for (const char* gpu : {"GPU-A", "GPU-B"}) {
    ResultsDocument run = run_on(gpu, 4400);
    run.environment["gpus"][0]["pci_bus_id"] = "0000:00:06.0";
    runs.push_back({std::string(gpu) + ".json", run});
  }
  const Baseline built = build_baseline(runs, "", "", "");
  ASSERT_EQ(built.runs.size(), 2u);
  EXPECT_EQ(built.runs[1].gpus, (std::vector<std::string>{"GPU-B"}));
  const Baseline back = baseline_from_json(to_json(built), "back.json");
  EXPECT_EQ(back.runs[0].gpus, (std::vector<std::string>{"GPU-A"}));
  nlohmann::json bad = to_json(built);
  bad["runs"][0]["gpus"] = "GPU-A";
  try {
    baseline_from_json(bad, "bad.json");
    FAIL() << "accepted a string for runs[0].gpus";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("runs[0].gpus"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace gpubench
