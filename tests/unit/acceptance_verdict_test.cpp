// How the acceptance verdict combines doctor, performance and stress, per GPU and for the node.
#include "harness/acceptance/acceptance_verdict.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "harness/report/console_report.hpp"
#include "harness/report/json_report.hpp"
#include "harness/report/junit_report.hpp"

namespace gpubench {
namespace {

CheckReport check_with(std::vector<MetricVerdict> verdicts) {
  CheckReport report;
  report.baseline_path = "baselines/nvidia-h200-x2-nv18.json";
  report.verdicts = std::move(verdicts);
  return report;
}

std::vector<GpuIdentity> gpus(const std::vector<int>& indexes) {
  std::vector<GpuIdentity> identities;
  for (int i : indexes) {
    identities.push_back({i, "0000:1" + std::to_string(i) + ":00.0", "GPU-uuid-" + std::to_string(i), "serial-" + std::to_string(i)});
  }
  return identities;
}

MetricVerdict verdict(const std::string& id, VerdictKind kind) {
  MetricVerdict v;
  v.id = id;
  v.kind = kind;
  v.reason = "test";
  return v;
}

TEST(Acceptance, AllClearPasses) {
  const AcceptanceReport r = judge_acceptance({gpus({0, 1}), {{Severity::Ok, "ecc.disabled", {0, 1}, "ok", ""}},
                                               check_with({verdict("memory/triad/1GiB/gpu0/bandwidth", VerdictKind::Pass)}), "",
                                               {{0, Grade::Pass, 780, 65, 690, {}}, {1, Grade::Pass, 781, 66, 690, {}}}});
  EXPECT_EQ(r.node_verdict, Grade::Pass);
  ASSERT_EQ(r.gpus.size(), 2u);
  EXPECT_EQ(r.gpus[0].verdict, Grade::Pass);
}

TEST(Acceptance, EachStageFailsTheRightGpuOrTheNode) {
  const std::vector<Finding> doctor = {{Severity::Critical, "ecc.uncorrectable_errors", {1}, "2 errors", "replace"},
                                       {Severity::Warning, "cpu.governor", {}, "powersave", "set performance"}};
  const CheckReport check = check_with({verdict("memory/triad/1GiB/gpu0/bandwidth", VerdictKind::Regression),
                                        verdict("nccl/allreduce/ring/simple/1GiB/out_of_place/busbw", VerdictKind::Noisy)});
  const std::vector<GpuStressVerdict> stress = {{0, Grade::Pass, 780, 65, 690, {}},
                                                {1, Grade::Fail, 700, 91, 700, {{"temperature.slowdown", "fail", "91 C"}}}};
  const AcceptanceReport r = judge_acceptance({gpus({0, 1}), doctor, check, "", stress});
  EXPECT_EQ(r.node_verdict, Grade::Fail);
  EXPECT_EQ(r.gpus[0].verdict, Grade::Fail);  // the triad regression
  EXPECT_EQ(r.gpus[0].stages[1].stage, "performance");
  EXPECT_EQ(r.gpus[0].stages[1].verdict, Grade::Fail);
  EXPECT_EQ(r.gpus[1].stages[0].verdict, Grade::Fail);  // doctor: ECC
  EXPECT_EQ(r.gpus[1].stages[2].verdict, Grade::Fail);  // stress: temperature
  EXPECT_EQ(r.node_stages[0].verdict, Grade::Warn);     // the governor belongs to the node
  EXPECT_EQ(r.node_stages[1].verdict, Grade::Warn);     // the noisy all-reduce belongs to no single GPU
}

TEST(Acceptance, AFigureThatDoesNotGateNeverFailsOrWarns) {
  const AcceptanceReport r = judge_acceptance({gpus({0}), {}, check_with({verdict("launch/plain_sync_end/gpu0/latency", VerdictKind::Informational),
                                                                           verdict("memory/triad/1GiB/gpu0/bandwidth", VerdictKind::Pass)}),
                                               "", {{0, Grade::Pass, 780, 65, 690, {}}}});
  EXPECT_EQ(r.node_verdict, Grade::Pass);
  EXPECT_EQ(r.gpus[0].stages[1].verdict, Grade::Pass);
}

TEST(Acceptance, NoBaselineIsAWarningThatSaysWhy) {
  const AcceptanceReport r = judge_acceptance({gpus({0}), {}, std::nullopt, "no baseline for 1 x NVIDIA B200 (single)", {}});
  EXPECT_EQ(r.node_verdict, Grade::Warn);
  EXPECT_NE(r.node_stages[1].reasons[0].find("NVIDIA B200"), std::string::npos);
  ASSERT_EQ(r.gpus.size(), 1u);
  EXPECT_EQ(r.gpus[0].stages[1].stage, "performance");
  EXPECT_EQ(r.gpus[0].stages[1].verdict, Grade::Warn) << "a GPU whose figures nobody judged is no performance pass";
}

TEST(Acceptance, JunitHasOneCasePerStageAndScope) {
  const AcceptanceReport r = judge_acceptance({gpus({0, 1}), {}, std::nullopt, "none", {}});
  std::ostringstream out;
  write_junit(verdict_list(r, "node1", {}), out);
  const std::string xml = out.str();
  std::size_t cases = 0;
  for (std::size_t at = xml.find("<testcase"); at != std::string::npos; at = xml.find("<testcase", at + 1)) ++cases;
  EXPECT_EQ(cases, 2u + 2u * 3u);
  EXPECT_EQ(acceptance_json(r)["schema"], "gpubench.acceptance/1");
}

TEST(Acceptance, EachGpusVerdictNamesTheGpuInJsonConsoleAndJunit) {
  const std::vector<Finding> doctor = {{Severity::Critical, "ecc.uncorrectable_errors", {1}, "2 errors", "replace"}};
  const AcceptanceReport r = judge_acceptance({gpus({0, 1}), doctor, std::nullopt, "none", {}});
  const nlohmann::json json = acceptance_json(r);
  EXPECT_EQ(json["gpus"][1]["index"], 1);
  EXPECT_EQ(json["gpus"][1]["pci_bus_id"], "0000:11:00.0");
  EXPECT_EQ(json["gpus"][1]["uuid"], "GPU-uuid-1");
  EXPECT_EQ(json["gpus"][1]["serial"], "serial-1");
  EXPECT_EQ(json["gpus"][1]["verdict"], "fail");
  std::ostringstream console;
  print_acceptance(r, console);
  EXPECT_NE(console.str().find("GPU 1 verdict: fail (PCI 0000:11:00.0, UUID GPU-uuid-1, serial serial-1)"), std::string::npos) << console.str();
  std::ostringstream junit;
  write_junit(verdict_list(r, "node1", {}), junit);
  EXPECT_NE(junit.str().find("<testcase classname=\"acceptance.node1.gpu1\" name=\"doctor\" time=\"0.000\">\n      <properties>\n"
                             "        <property name=\"pci_bus_id\" value=\"0000:11:00.0\"/>\n"
                             "        <property name=\"uuid\" value=\"GPU-uuid-1\"/>\n"
                             "        <property name=\"serial\" value=\"serial-1\"/>\n      </properties>\n      <failure"),
            std::string::npos) << junit.str();
  EXPECT_EQ(junit.str().find("acceptance.node1.node\" name=\"doctor\" time=\"0.000\">\n      <properties>"), std::string::npos) << "the node has none";
}

// The standard level's three stress runs count together in the stress stage: a failure of any fails the GPU, named
// with its load; what the power and pulse loads measured is listed even when they pass; the level and what it ran
// are in the console and JSON reports.
TEST(Acceptance, EveryStressLoadOfTheLevelCountsAndSaysWhatItMeasured) {
  GpuStressVerdict sustained{0, Grade::Pass, 780, 65, 690, {}};
  GpuStressVerdict power{0, Grade::Pass, 770, 70, 700, {{"power.target_reached", "info", "reached its power limit: median 695 W of 700 W"}}};
  power.mode = StressMode::Power;
  GpuStressVerdict pulse{0, Grade::Fail, 700, 66, 700, {{"pulse.clock_collapse", "fail", "10 ms period: 4 bursts collapsed"}}};
  pulse.mode = StressMode::Pulse;
  const std::vector<std::string> runs = {"doctor", "acceptance figures against the baseline", "sustained stress 120 s",
                                         "power target 60 s", "pulse 60 s (10 ms, 100 ms and 1 s periods)"};
  const AcceptanceReport r = judge_acceptance({gpus({0}), {}, check_with({}), "", {sustained, power, pulse}, std::nullopt, "standard", runs});
  const StageResult& stress = r.gpus[0].stages[2];
  EXPECT_EQ(stress.stage, "stress");
  EXPECT_EQ(stress.verdict, Grade::Fail);
  ASSERT_EQ(stress.reasons.size(), 2u);
  EXPECT_EQ(stress.reasons[0], "power load: power.target_reached: reached its power limit: median 695 W of 700 W");
  EXPECT_EQ(stress.reasons[1], "pulse load: pulse.clock_collapse: 10 ms period: 4 bursts collapsed");
  std::ostringstream console;
  print_acceptance(r, console);
  EXPECT_NE(console.str().find("Acceptance, level standard: doctor; acceptance figures against the baseline; sustained stress 120 s"),
            std::string::npos) << console.str();
  const nlohmann::json json = acceptance_json(r);
  EXPECT_EQ(json["level"]["name"], "standard");
  EXPECT_EQ(json["level"]["runs"].size(), 5u);
}

// Without a usable GPU acceptance stops after doctor: doctor fails for its own finding (not a second time for the
// stop), and every later stage is on the node as not run, with the reason, so a CI reading the reports sees why.
TEST(Acceptance, AStopAfterDoctorNamesTheReasonAndLeavesTheRestNotRun) {
  AcceptanceEvidence evidence;
  evidence.doctor = {
      {Severity::Critical, "cuda.no_gpu", {}, "CUDA sees no usable GPU: cudaErrorNoDevice", "load the driver"}};
  evidence.dcgm.emplace();
  evidence.stopped = StageStop{"doctor", "no usable GPU: cudaErrorNoDevice"};
  const AcceptanceReport r = judge_acceptance(evidence);
  EXPECT_EQ(r.node_verdict, Grade::Fail);
  ASSERT_EQ(r.node_stages.size(), 4u);
  EXPECT_EQ(r.node_stages[0].stage, "doctor");
  EXPECT_EQ(r.node_stages[0].reasons,
            std::vector<std::string>{"cuda.no_gpu: CUDA sees no usable GPU: cudaErrorNoDevice (fix: load the driver)"});
  for (std::size_t s = 1; s < 4; ++s) {
    EXPECT_EQ(r.node_stages[s].stage, std::vector<std::string>({"doctor", "performance", "stress", "dcgm"})[s]);
    EXPECT_TRUE(r.node_stages[s].skipped) << r.node_stages[s].stage;
    ASSERT_EQ(r.node_stages[s].reasons.size(), 1u);
    EXPECT_EQ(r.node_stages[s].reasons[0],
              "not run: acceptance stopped at the doctor stage (no usable GPU: cudaErrorNoDevice)");
  }
  EXPECT_EQ(r.baseline, "none chosen: acceptance stopped at the doctor stage");
  std::ostringstream junit;
  write_junit(verdict_list(r, "node1", {}), junit);
  const std::string xml = junit.str();
  EXPECT_NE(xml.find("tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"3\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure type=\"fail\" message=\"cuda.no_gpu: CUDA sees no usable GPU"), std::string::npos)
      << xml;
}

// A stage that could not finish (gpubench-micro missing, a CUDA error) fails the node with its error; the GPUs'
// part of it did not finish, and the stages after it did not run on any GPU: nothing reads as a pass.
TEST(Acceptance, AStageThatCouldNotFinishFailsTheNodeAndNothingAfterItPasses) {
  AcceptanceEvidence evidence;
  evidence.gpus = gpus({0, 1});
  evidence.stopped = StageStop{"performance", "gpubench-micro not found at /opt/gpubench/bin/gpubench-micro"};
  const AcceptanceReport r = judge_acceptance(evidence);
  EXPECT_EQ(r.node_verdict, Grade::Fail);
  ASSERT_EQ(r.node_stages.size(), 3u);
  EXPECT_EQ(r.node_stages[1].stage, "performance");
  EXPECT_EQ(r.node_stages[1].verdict, Grade::Fail);
  EXPECT_EQ(r.node_stages[1].reasons, std::vector<std::string>{evidence.stopped->reason}) << "no baseline note besides";
  EXPECT_EQ(r.node_stages[2].stage, "stress");
  EXPECT_TRUE(r.node_stages[2].skipped);
  for (const GpuAcceptance& gpu : r.gpus) {
    EXPECT_EQ(gpu.stages[0].verdict, Grade::Pass) << "doctor ran";
    EXPECT_EQ(gpu.stages[1].verdict, Grade::Warn);
    EXPECT_EQ(gpu.stages[1].reasons, std::vector<std::string>{"did not finish (see the node's verdict)"});
    EXPECT_TRUE(gpu.stages[2].skipped);
    EXPECT_EQ(gpu.stages[2].verdict, Grade::Warn);
  }
}

}  // namespace
}  // namespace gpubench
