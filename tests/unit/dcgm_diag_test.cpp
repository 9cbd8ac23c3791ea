// DCGM's diagnostic in acceptance: its JSON in both layouts (recorded in tests/data/dcgm/), the mapping of DCGM's
// GPU ids onto CUDA's, and how its results count in the verdict per GPU and for the node.
#include "harness/acceptance/dcgm_diag.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "harness/acceptance/acceptance_verdict.hpp"
#include "harness/report/json_report.hpp"
#include "harness/report/junit_report.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {
namespace {

DcgmDiagReport recorded(const std::string& name) { return parse_dcgm_diag(read_json_file(std::string(GPUBENCH_TEST_DATA) + "/dcgm/" + name)); }

std::vector<GpuIdentity> two_gpus() {
  return {{0, "0000:18:00.0", "GPU-5ede5d59-c949-3aca-4b28-11bd00045ab5", "1653924042280"},
          {1, "0000:2a:00.0", "GPU-0b11d014-1685-04bd-26ed-5fc0bc1c44ae", "1653924042281"}};
}

AcceptanceReport accept_with(const DcgmEvidence& dcgm) {
  CheckReport check;
  check.baseline_path = "baselines/nvidia-h200-x2-nv18.json";
  return judge_acceptance({two_gpus(), {}, check, "", {}, dcgm});
}

const StageResult& stage(const std::vector<StageResult>& stages, const std::string& name) {
  for (const StageResult& s : stages) {
    if (s.stage == name) return s;
  }
  ADD_FAILURE() << "no stage " << name;
  return stages.front();
}

TEST(DcgmDiag, Dcgm3LayoutGivesEachTestsResultPerGpu) {
  const DcgmDiagReport report = recorded("diag_r2_dcgm3_memory_failure.json");
  EXPECT_TRUE(report.runtime_error.empty());
  EXPECT_TRUE(report.serials.empty());
  ASSERT_EQ(report.results.size(), 9u + 2u + 2u + 2u);
  EXPECT_EQ(report.results[0].category, "Deployment");
  EXPECT_EQ(report.results[0].test, "Denylist");
  EXPECT_TRUE(report.results[0].gpus.empty()) << "a software test belongs to the node";
  const DcgmResult& memory = report.results[12];
  EXPECT_EQ(memory.category, "Hardware");
  EXPECT_EQ(memory.test, "GPU Memory");
  EXPECT_EQ(memory.gpus, std::vector<int>{1});
  EXPECT_EQ(memory.status, "Fail");
  ASSERT_EQ(memory.messages.size(), 2u);
  EXPECT_EQ(memory.messages[0], "Found 4 faulty memory elements on GPU 1 (DCGM error 52)");
  EXPECT_EQ(memory.messages[1], "Allocated 148324315136 bytes (98.8%)");
}

TEST(DcgmDiag, Dcgm4LayoutGivesEntitiesSerialsAndInfoLists) {
  const DcgmDiagReport report = recorded("diag_r1_dcgm4.json");
  ASSERT_EQ(report.results.size(), 3u);
  EXPECT_EQ(report.results[1].gpus, std::vector<int>{1});
  EXPECT_EQ(report.results[1].status, "Warn");
  EXPECT_EQ(report.results[1].messages,
            (std::vector<std::string>{"Persistence mode for GPU 1 is disabled. (DCGM error 37)", "Run nvidia-persistenced to keep the driver loaded."}));
  EXPECT_TRUE(report.results[2].gpus.empty()) << "entity group None: the node";
  EXPECT_EQ(report.serials, (std::map<int, std::string>{{0, "1653924042280"}, {1, "1653924042281"}}));
}

TEST(DcgmDiag, NeitherLayoutIsRefusedAndARuntimeErrorIsKept) {
  EXPECT_THROW(parse_dcgm_diag(nlohmann::json::parse(R"({"results": []})")), std::invalid_argument);
  EXPECT_THROW(parse_dcgm_diag(nlohmann::json::parse(R"([1, 2])")), std::invalid_argument);
  EXPECT_THROW(parse_dcgm_diag(nlohmann::json::parse(R"({"DCGM Diagnostic": {}})")), std::invalid_argument);
  const DcgmDiagReport failed = parse_dcgm_diag(nlohmann::json::parse(
      R"({"DCGM GPU Diagnostic": {"version": "3.3.5", "runtime_error": "Unable to connect to the host engine"}})"));
  EXPECT_EQ(failed.runtime_error, "Unable to connect to the host engine");
  EXPECT_TRUE(failed.results.empty());
}

TEST(DcgmDiag, StatusesMapOntoGrades) {
  EXPECT_EQ(grade_of_dcgm_status("Fail"), Grade::Fail);
  EXPECT_EQ(grade_of_dcgm_status("FAIL"), Grade::Fail);
  EXPECT_EQ(grade_of_dcgm_status("Warn"), Grade::Warn);
  for (const char* passing : {"Pass", "PASS", "Skip", "Not Run", ""}) EXPECT_EQ(grade_of_dcgm_status(passing), Grade::Pass) << passing;
}

TEST(DcgmDiag, DcgmsGpuIdsMapOntoCudasBySerialElseByNvmlIndex) {
  // CUDA's order differs from NVML's here: CUDA 0 is NVML (and DCGM) 1.
  std::vector<GpuFacts> gpus(2);
  gpus[0].index = 0;
  gpus[0].serial = "1653924042281";
  gpus[0].nvml_index.value = 1;
  gpus[1].index = 1;
  gpus[1].serial = "1653924042280";
  gpus[1].nvml_index.value = 0;
  EXPECT_EQ(dcgm_to_cuda_indexes(recorded("diag_r1_dcgm4.json"), gpus), (std::map<int, int>{{0, 1}, {1, 0}}));
  EXPECT_EQ(dcgm_to_cuda_indexes(recorded("diag_r2_dcgm3_memory_failure.json"), gpus), (std::map<int, int>{{0, 1}, {1, 0}}))
      << "no serials in DCGM 3's output: NVML's index";
}

TEST(AcceptanceWithDcgm, AFailedTestFailsItsGpuAndTheNode) {
  const AcceptanceReport r = accept_with({"", "", recorded("diag_r2_dcgm3_memory_failure.json"), {{0, 0}, {1, 1}}});
  EXPECT_EQ(r.node_verdict, Grade::Fail);
  ASSERT_EQ(r.gpus.size(), 2u);
  EXPECT_EQ(r.gpus[0].verdict, Grade::Pass);
  EXPECT_EQ(stage(r.gpus[0].stages, "dcgm").verdict, Grade::Pass);
  const StageResult& failed = stage(r.gpus[1].stages, "dcgm");
  EXPECT_EQ(failed.verdict, Grade::Fail);
  ASSERT_EQ(failed.reasons.size(), 1u);
  EXPECT_EQ(failed.reasons[0], "Hardware/GPU Memory: Fail; Found 4 faulty memory elements on GPU 1 (DCGM error 52); Allocated 148324315136 bytes (98.8%)");
  EXPECT_EQ(stage(r.node_stages, "dcgm").verdict, Grade::Pass) << "the skipped Inforom test judged nothing";
}

TEST(AcceptanceWithDcgm, ResultsOnNoGpuTestedCountForTheNode) {
  const AcceptanceReport r = accept_with({"", "", recorded("diag_r1_dcgm4.json"), {{1, 0}}});  // DCGM 0 is not tested
  EXPECT_EQ(stage(r.gpus[0].stages, "dcgm").verdict, Grade::Warn) << "DCGM GPU 1 is CUDA's 0";
  EXPECT_EQ(stage(r.gpus[1].stages, "dcgm").verdict, Grade::Pass);
  const StageResult& node = stage(r.node_stages, "dcgm");
  EXPECT_EQ(node.verdict, Grade::Warn);
  ASSERT_EQ(node.reasons.size(), 1u);
  EXPECT_NE(node.reasons[0].find("CUDA_LAUNCH_BLOCKING"), std::string::npos);
  EXPECT_EQ(r.node_verdict, Grade::Warn);
}

TEST(AcceptanceWithDcgm, WithoutDcgmiTheStageIsSkippedWithTheReasonEverywhere) {
  const AcceptanceReport r = accept_with({"dcgmi is not installed (not on PATH)", "", {}, {}});
  const StageResult& node = stage(r.node_stages, "dcgm");
  EXPECT_TRUE(node.skipped);
  EXPECT_EQ(node.verdict, Grade::Pass);
  EXPECT_EQ(r.node_verdict, Grade::Pass) << "a skipped stage neither fails nor warns";
  for (const GpuAcceptance& gpu : r.gpus) EXPECT_EQ(gpu.stages.size(), 3u) << "no per-GPU DCGM stage without results";
  const nlohmann::json json = acceptance_json(r);
  EXPECT_EQ(json["node"][2]["stage"], "dcgm");
  EXPECT_EQ(json["node"][2]["skipped"], true);
  EXPECT_NE(json["node"][2]["reasons"][0].get<std::string>().find("dcgmi is not installed"), std::string::npos);
  std::ostringstream junit;
  write_junit(verdict_list(r, "node1", {}), junit);
  EXPECT_NE(junit.str().find("skipped=\"1\""), std::string::npos) << junit.str();
  EXPECT_NE(junit.str().find("<skipped message=\"skipped: dcgmi is not installed (not on PATH)\"/>"), std::string::npos) << junit.str();
}

TEST(AcceptanceWithDcgm, NoResultOrARuntimeErrorWarnsTheNode) {
  EXPECT_EQ(accept_with({"", "dcgmi diag gave no JSON (exit status 255)", {}, {}}).node_verdict, Grade::Warn);
  DcgmDiagReport refused;
  refused.runtime_error = "Unable to connect to the host engine";
  const AcceptanceReport r = accept_with({"", "", refused, {}});
  EXPECT_EQ(r.node_verdict, Grade::Warn);
  EXPECT_NE(stage(r.node_stages, "dcgm").reasons[0].find("host engine"), std::string::npos);
}

TEST(AcceptanceWithDcgm, EachGpuHasADcgmTestCaseOnceDcgmGaveResults) {
  const AcceptanceReport r = accept_with({"", "", recorded("diag_r2_dcgm3_memory_failure.json"), {{0, 0}, {1, 1}}});
  std::ostringstream junit;
  write_junit(verdict_list(r, "node1", {}), junit);
  EXPECT_NE(junit.str().find("classname=\"acceptance.node1.gpu0\" name=\"dcgm\""), std::string::npos) << junit.str();
  EXPECT_NE(junit.str().find("classname=\"acceptance.node1.gpu1\" name=\"dcgm\""), std::string::npos);
  EXPECT_NE(junit.str().find("classname=\"acceptance.node1.node\" name=\"dcgm\""), std::string::npos);
  EXPECT_EQ(acceptance_json(r)["gpus"][1]["stages"][3]["verdict"], "fail");
}

}  // namespace
}  // namespace gpubench
