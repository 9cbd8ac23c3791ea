// The node profile of `doctor --expect`: loading it (every fault an InputError naming file and field) and the
// inventory rules that hold a node against it (tests/data/doctor/profile_h200_x8.json, an HGX H200 board).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "harness/doctor/health_rules.hpp"
#include "harness/doctor/node_profile.hpp"
#include "harness/results/input_error.hpp"

namespace gpubench {
namespace {

const std::string kProfile = std::string(GPUBENCH_TEST_DATA) + "/doctor/profile_h200_x8.json";

GpuFacts h200(int index) {
  GpuFacts gpu;
  gpu.index = index;
  gpu.name = "NVIDIA H200";
  gpu.pci_bus_id = "0000:" + std::to_string(10 + index) + ":00.0";
  gpu.memory_bytes = 150109880320;  // what CUDA reports for an H200: 143156 MiB
  gpu.vbios_version.value = "96.00.AF.00.01";
  gpu.ecc_mode.value = EccMode{true, true};
  gpu.pcie.value = PcieLink{5, 16, 5, 16};
  std::vector<NvLinkFacts> links;
  for (unsigned link = 0; link < 18; ++link) {
    NvLinkFacts facts;
    facts.link = link;
    facts.active = true;
    facts.speed_mb_per_s.value = 26562;
    links.push_back(facts);
  }
  gpu.nvlinks.value = links;
  return gpu;
}

NodeFacts hgx(int gpus) {
  NodeFacts node;
  node.cuda_device_count = gpus;
  node.nvml_device_count.value = static_cast<unsigned>(gpus);
  node.driver_version.value = "580.159.04";
  for (int i = 0; i < gpus; ++i) node.gpus.push_back(h200(i));
  return node;
}

std::vector<Finding> inventory(const NodeFacts& node, const NodeProfile& profile) {
  std::vector<Finding> out;
  for (const Finding& f : judge_node_health(node, {}, profile)) {
    if (f.check.rfind("inventory.", 0) == 0) out.push_back(f);
  }
  return out;
}

std::vector<Finding> problems(const std::vector<Finding>& findings) {
  std::vector<Finding> out;
  for (const Finding& f : findings) {
    if (f.severity != Severity::Ok) out.push_back(f);
  }
  return out;
}

// The message of the InputError that loading `text` as a profile throws; "" when it loads.
std::string load_error(const std::string& text) {
  const std::string path = "/tmp/gpubench-profile-" + std::to_string(getpid()) + ".json";
  std::ofstream(path) << text;
  std::string message;
  try {
    load_node_profile(path);
  } catch (const InputError& error) {
    message = error.what();
  }
  std::remove(path.c_str());
  return message;
}

TEST(NodeProfile, TheRecordedProfileAndTheExampleLoad) {
  const NodeProfile profile = load_node_profile(kProfile);
  EXPECT_EQ(profile.path, kProfile);
  EXPECT_EQ(profile.gpu_count, 8u);
  EXPECT_EQ(profile.gpu_model, "NVIDIA H200");
  EXPECT_EQ(profile.vbios_version, "96.00.AF.00.01");
  EXPECT_EQ(profile.nvlink_speed_gb_per_s, 26.562);
  EXPECT_EQ(profile.ecc, true);
  const NodeProfile example = load_node_profile(std::string(GPUBENCH_EXAMPLES) + "/node-profiles/nvidia-h200-x2-nv18.json");
  EXPECT_EQ(example.gpu_count, 2u);
  EXPECT_FALSE(example.vbios_version) << "left out: not checked";
}

TEST(NodeProfile, EveryFaultNamesTheFileAndTheField) {
  const std::string typo = load_error(R"({"gpu_cuont": 8})");
  EXPECT_NE(typo.find("gpubench-profile-"), std::string::npos) << typo;
  EXPECT_NE(typo.find("field 'gpu_cuont'"), std::string::npos) << typo;
  EXPECT_NE(typo.find("gpu_count"), std::string::npos) << "the known fields are listed: " << typo;
  EXPECT_NE(load_error(R"({"gpu_count": "8"})").find("field 'gpu_count': expected a whole number"), std::string::npos);
  EXPECT_NE(load_error(R"({"gpu_count": 0})").find("field 'gpu_count'"), std::string::npos);
  EXPECT_NE(load_error(R"({"pcie_generation": 9})").find("field 'pcie_generation'"), std::string::npos);
  EXPECT_NE(load_error(R"({"nvlink_speed_gb_per_s": -1})").find("field 'nvlink_speed_gb_per_s'"), std::string::npos);
  EXPECT_NE(load_error(R"({"ecc": "on"})").find("field 'ecc': expected true or false"), std::string::npos);
  EXPECT_NE(load_error(R"({"gpu_model": ""})").find("field 'gpu_model'"), std::string::npos);
  EXPECT_NE(load_error(R"({"schema": "gpubench.results/1"})").find("field 'schema'"), std::string::npos);
  EXPECT_NE(load_error(R"([8])").find("expected a JSON object"), std::string::npos);
  EXPECT_FALSE(load_error("{\"gpu_count\": 8,").empty()) << "not JSON";
  EXPECT_EQ(load_error("{}"), "") << "every field may be left out";
  EXPECT_THROW(load_node_profile("/no/such/profile.json"), InputError);
}

TEST(Inventory, ANodeAsTheProfileSaysIsAllOk) {
  const std::vector<Finding> findings = inventory(hgx(8), load_node_profile(kProfile));
  EXPECT_TRUE(problems(findings).empty()) << problems(findings)[0].finding;
  for (const char* check : {"inventory.gpu_count", "inventory.driver_version", "inventory.gpu_model", "inventory.memory",
                            "inventory.vbios_version", "inventory.nvlinks", "inventory.pcie_link", "inventory.ecc"}) {
    EXPECT_TRUE(std::any_of(findings.begin(), findings.end(), [&](const Finding& f) { return f.check == check; })) << check;
  }
}

TEST(Inventory, AMissingGpuAndASlowLinkAreCriticalNamingExpectedAndFound) {
  NodeFacts node = hgx(7);
  node.nvml_device_count.value = 8;  // the driver still counts the lost GPU
  (*node.gpus[3].nvlinks.value)[5].speed_mb_per_s.value = 13281;
  const std::vector<Finding> found = problems(inventory(node, load_node_profile(kProfile)));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].check, "inventory.gpu_count");
  EXPECT_EQ(found[0].severity, Severity::Critical);
  EXPECT_TRUE(found[0].gpus.empty());
  EXPECT_NE(found[0].finding.find("expected 8 GPUs (" + kProfile + "), found 7"), std::string::npos) << found[0].finding;
  EXPECT_NE(found[0].finding.find("the driver knows 8"), std::string::npos) << found[0].finding;
  EXPECT_EQ(found[1].check, "inventory.nvlinks");
  EXPECT_EQ(found[1].severity, Severity::Critical);
  EXPECT_EQ(found[1].gpus, std::vector<int>{3});
  EXPECT_NE(found[1].finding.find("expected 26.562 GB/s per link"), std::string::npos) << found[1].finding;
  EXPECT_NE(found[1].finding.find("found link 5 at 13.281 GB/s"), std::string::npos) << found[1].finding;
  EXPECT_TRUE(any_critical(judge_node_health(node, {}, load_node_profile(kProfile))));
}

TEST(Inventory, EachFieldIsHeldAgainstTheNode) {
  NodeFacts node = hgx(2);
  node.driver_version.value = "570.86.15";
  node.gpus[0].name = "NVIDIA H100 80GB HBM3";
  node.gpus[0].memory_bytes = 85045460992;  // 81104 MiB
  node.gpus[1].vbios_version.value = "96.00.99.00.01";
  (*node.gpus[1].nvlinks.value)[17].active = false;
  node.gpus[1].pcie.value = PcieLink{1, 16, 5, 16};
  node.gpus[1].pcie_under_load.value = PcieLink{4, 8, 5, 16};
  node.gpus[0].ecc_mode.value = EccMode{false, false};
  NodeProfile profile = load_node_profile(kProfile);
  profile.gpu_count = 2;
  const std::vector<Finding> found = problems(inventory(node, profile));
  const auto finding = [&found](const std::string& check) {
    for (const Finding& f : found) {
      if (f.check == check) return f.severity == Severity::Critical ? f.finding : "not critical: " + f.finding;
    }
    return std::string("absent");
  };
  EXPECT_NE(finding("inventory.driver_version").find("expected driver 580.159.04"), std::string::npos) << finding("inventory.driver_version");
  EXPECT_NE(finding("inventory.driver_version").find("found 570.86.15"), std::string::npos);
  EXPECT_NE(finding("inventory.gpu_model").find("found NVIDIA H100 80GB HBM3"), std::string::npos) << finding("inventory.gpu_model");
  EXPECT_NE(finding("inventory.memory").find("expected 143156 MiB"), std::string::npos) << finding("inventory.memory");
  EXPECT_NE(finding("inventory.vbios_version").find("found 96.00.99.00.01"), std::string::npos) << finding("inventory.vbios_version");
  EXPECT_NE(finding("inventory.nvlinks").find("active NVLinks expected 18"), std::string::npos) << finding("inventory.nvlinks");
  EXPECT_NE(finding("inventory.nvlinks").find("found 17"), std::string::npos);
  EXPECT_NE(finding("inventory.pcie_link").find("expected gen 5 x16"), std::string::npos) << finding("inventory.pcie_link");
  EXPECT_NE(finding("inventory.pcie_link").find("found gen 4 x8 under load"), std::string::npos) << finding("inventory.pcie_link");
  EXPECT_NE(finding("inventory.ecc").find("expected ECC on"), std::string::npos) << finding("inventory.ecc");
}

TEST(Inventory, AFieldLeftOutIsNotChecked) {
  NodeFacts node = hgx(7);
  node.gpus[0].name = "NVIDIA A100-SXM4-80GB";
  NodeProfile only_links;
  only_links.path = "links.json";
  only_links.nvlinks_per_gpu = 18;
  const std::vector<Finding> findings = inventory(node, only_links);
  ASSERT_EQ(findings.size(), 1u) << "no count, no model: only the links";
  EXPECT_EQ(findings[0].check, "inventory.nvlinks");
  EXPECT_EQ(findings[0].severity, Severity::Ok);
  EXPECT_TRUE(inventory(node, NodeProfile{}).empty());
}

TEST(Inventory, AnIdleLinkBelowItsMaximumWithoutAReadingUnderLoadIsNotJudged) {
  NodeFacts node = hgx(1);
  node.gpus[0].pcie.value = PcieLink{1, 16, 5, 16};  // idle GPUs drop to gen 1
  node.gpus[0].pcie_under_load.why_not = "cudaMemcpy: out of memory";
  NodeProfile profile;
  profile.path = "p.json";
  profile.pcie_generation = 5;
  const std::vector<Finding> findings = inventory(node, profile);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::Info);
  EXPECT_NE(findings[0].finding.find("out of memory"), std::string::npos) << findings[0].finding;
}

}  // namespace
}  // namespace gpubench
