// PCIe errors: the sysfs AER files of a GPU and the port above it (recorded in tests/data/doctor/aer/, laid out
// in a temporary sysfs tree), and the rules on AER counts and NVML's replay counter.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "harness/doctor/health_rules.hpp"
#include "harness/doctor/pcie_aer.hpp"

namespace gpubench {
namespace {

namespace fs = std::filesystem;

std::string recorded(const std::string& name) {
  std::ifstream in(std::string(GPUBENCH_TEST_DATA) + "/doctor/aer/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A sysfs tree as Linux lays it out: the functions under /sys/devices/pci0000:00/..., nested below the bridge
// they sit behind, and bus/pci/devices holding a link to each.
class SysfsTree : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("gpubench-sysfs-" + std::to_string(getpid()));
    fs::remove_all(root_);
    const fs::path bridge = root_ / "devices" / "pci0000:00" / "0000:00:01.0";
    const fs::path gpu = bridge / "0000:18:00.0";
    const fs::path vm_gpu = root_ / "devices" / "pci0000:00" / "0000:00:06.0";  // on the root bus, as in many VMs
    for (const fs::path& dir : {gpu, vm_gpu}) fs::create_directories(dir);
    for (const char* file : {"aer_dev_correctable", "aer_dev_nonfatal", "aer_dev_fatal"}) {
      std::ofstream(gpu / file) << recorded(std::string("gpu/") + file);
      std::ofstream(bridge / file) << recorded(std::string("bridge/") + file);
    }
    fs::create_directories(devices());
    fs::create_directory_symlink(gpu, devices() / "0000:18:00.0");
    fs::create_directory_symlink(bridge, devices() / "0000:00:01.0");
    fs::create_directory_symlink(vm_gpu, devices() / "0000:00:06.0");
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path devices() const { return root_ / "bus" / "pci" / "devices"; }

  fs::path root_;
};

TEST(Aer, TheKernelsFileGivesItsTotalAndTheNamedCountsAboveZero) {
  const AerFile file = parse_aer_file(recorded("gpu/aer_dev_correctable"));
  EXPECT_EQ(file.total, 15u);
  EXPECT_EQ(file.nonzero, (std::map<std::string, std::uint64_t>{{"BadTLP", 3}, {"RxErr", 12}, {"Timeout", 1}}));
  EXPECT_EQ(parse_aer_file(recorded("gpu/aer_dev_fatal")).total, 0u);
  EXPECT_TRUE(parse_aer_file("").nonzero.empty());
  EXPECT_THROW(parse_aer_file("RxErr twelve\n"), std::invalid_argument);
  EXPECT_THROW(parse_aer_file("RxErr 1 2\n"), std::invalid_argument);
}

TEST_F(SysfsTree, AGpuIsReadWithTheBridgePortAboveIt) {
  const std::vector<PcieFunctionAer> functions = read_pcie_aer(devices().string(), "0000:18:00.0");
  ASSERT_EQ(functions.size(), 2u);
  EXPECT_TRUE(functions[0].is_gpu);
  ASSERT_TRUE(functions[0].counts.value) << functions[0].counts.why_not;
  EXPECT_EQ(functions[0].counts.value->correctable, 15u);
  EXPECT_EQ(functions[0].counts.value->fatal, 0u);
  EXPECT_EQ(functions[0].counts.value->named.at("correctable RxErr"), 12u);
  EXPECT_FALSE(functions[1].is_gpu);
  EXPECT_EQ(functions[1].address, "0000:00:01.0");
  ASSERT_TRUE(functions[1].counts.value) << functions[1].counts.why_not;
  EXPECT_EQ(functions[1].counts.value->fatal, 1u);
  EXPECT_EQ(functions[1].counts.value->named.at("fatal DLP"), 1u);
}

TEST_F(SysfsTree, AGpuOnTheRootBusHasNoPortAboveItAndNoCountersIsSaid) {
  EXPECT_EQ(upstream_port(devices().string(), "0000:00:06.0"), "");
  const std::vector<PcieFunctionAer> functions = read_pcie_aer(devices().string(), "0000:00:06.0");
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_FALSE(functions[0].counts.value);
  EXPECT_NE(functions[0].counts.why_not.find("aer_dev_correctable does not exist"), std::string::npos) << functions[0].counts.why_not;
  EXPECT_EQ(upstream_port(devices().string(), "0000:99:00.0"), "") << "no such device";
}

GpuFacts gpu_with_counts(const AerCounts& gpu_counts, const AerCounts& bridge_counts) {
  GpuFacts gpu;
  gpu.index = 0;
  gpu.pci_bus_id = "0000:18:00.0";
  gpu.pcie_aer = {{"0000:18:00.0", true, {gpu_counts, ""}}, {"0000:00:01.0", false, {bridge_counts, ""}}};
  gpu.pcie_replays.value = 0;
  return gpu;
}

std::vector<Finding> with_check(const NodeFacts& node, const std::string& check, const HealthLimits& limits = {}) {
  std::vector<Finding> out;
  for (const Finding& f : judge_node_health(node, limits)) {
    if (f.check == check) out.push_back(f);
  }
  return out;
}

NodeFacts node_of(const GpuFacts& gpu) {
  NodeFacts node;
  node.gpus = {gpu};
  node.host.uptime_s.value = 86400.0;
  return node;
}

TEST(PcieErrorRules, UncorrectableErrorsAnywhereOnTheLinkAreCritical) {
  AerCounts bridge;
  bridge.fatal = 1;
  bridge.named = {{"fatal DLP", 1}};
  const std::vector<Finding> findings = with_check(node_of(gpu_with_counts({}, bridge)), "pcie.aer_errors");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::Critical);
  EXPECT_EQ(findings[0].gpus, std::vector<int>{0});
  EXPECT_NE(findings[0].finding.find("1 fatal (DLP 1) and 0 non-fatal"), std::string::npos) << findings[0].finding;
  EXPECT_NE(findings[0].finding.find("the bridge port above it (0000:00:01.0)"), std::string::npos) << findings[0].finding;
  EXPECT_NE(findings[0].fix.find("lspci -vvv -s 0000:00:01.0"), std::string::npos);
}

TEST(PcieErrorRules, CorrectableErrorsAloneAreInfoNamingTheirKinds) {
  AerCounts gpu;
  gpu.correctable = 15;
  gpu.named = {{"correctable BadTLP", 3}, {"correctable RxErr", 12}};
  const std::vector<Finding> findings = with_check(node_of(gpu_with_counts(gpu, {})), "pcie.aer_errors");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::Info);
  EXPECT_NE(findings[0].finding.find("15 correctable PCIe errors since boot on the GPU (0000:18:00.0) (BadTLP 3, RxErr 12)"),
            std::string::npos) << findings[0].finding;
}

TEST(PcieErrorRules, CleanCountsAreOkAndUnreadableOnesSaySo) {
  const std::vector<Finding> clean = with_check(node_of(gpu_with_counts({}, {})), "pcie.aer_errors");
  ASSERT_EQ(clean.size(), 1u);
  EXPECT_EQ(clean[0].severity, Severity::Ok);
  GpuFacts vm = gpu_with_counts({}, {});
  vm.pcie_aer = {{"0000:00:06.0", true, {std::nullopt, "aer_dev_correctable does not exist"}}};
  const std::vector<Finding> unread = with_check(node_of(vm), "pcie.aer_errors");
  ASSERT_EQ(unread.size(), 1u);
  EXPECT_EQ(unread[0].severity, Severity::Info);
  EXPECT_NE(unread[0].finding.find("cannot check the PCIe AER counters of the GPU"), std::string::npos) << unread[0].finding;
}

TEST(PcieErrorRules, ReplaysWarnAtDcgmsRateAndAreInfoBelowIt) {
  GpuFacts gpu = gpu_with_counts({}, {});
  gpu.pcie_replays.value = 0;
  EXPECT_EQ(with_check(node_of(gpu), "pcie.replays")[0].severity, Severity::Ok);
  gpu.pcie_replays.value = 50;  // in a day: 0.035 a minute
  const std::vector<Finding> few = with_check(node_of(gpu), "pcie.replays");
  ASSERT_EQ(few.size(), 1u);
  EXPECT_EQ(few[0].severity, Severity::Info);
  EXPECT_NE(few[0].finding.find("50 PCIe replays"), std::string::npos);
  gpu.pcie_replays.value = 20000;  // in a day: 13.9 a minute, above DCGM's 8
  const std::vector<Finding> many = with_check(node_of(gpu), "pcie.replays");
  ASSERT_EQ(many.size(), 1u);
  EXPECT_EQ(many[0].severity, Severity::Warning);
  EXPECT_NE(many[0].finding.find("at least 13.9 a minute"), std::string::npos) << many[0].finding;
  NodeFacts no_uptime = node_of(gpu);
  no_uptime.host.uptime_s = {std::nullopt, "/proc/uptime unreadable"};
  EXPECT_EQ(with_check(no_uptime, "pcie.replays")[0].severity, Severity::Info);
  gpu.pcie_replays = {std::nullopt, "nvmlDeviceGetPcieReplayCounter: Not Supported"};
  const std::vector<Finding> unread = with_check(node_of(gpu), "pcie.replays");
  EXPECT_EQ(unread[0].severity, Severity::Info);
  EXPECT_NE(unread[0].finding.find("Not Supported"), std::string::npos);
}

TEST(PcieErrorGrowth, CountsThatRoseUnderLoadAreJudgedAgainstTheFirstReading) {
  AerCounts earlier;
  earlier.correctable = 15;
  NodeFacts before = node_of(gpu_with_counts(earlier, {}));
  before.gpus[0].pcie_replays.value = 3;
  NodeFacts same = before;
  const std::vector<Finding> quiet = judge_pcie_error_growth(before, same);
  ASSERT_EQ(quiet.size(), 1u);
  EXPECT_EQ(quiet[0].severity, Severity::Ok);
  EXPECT_EQ(quiet[0].check, "pcie.errors_during_run");

  NodeFacts after = before;
  AerCounts later = earlier;
  later.correctable = 40;
  AerCounts bridge;
  bridge.nonfatal = 2;
  after.gpus[0] = gpu_with_counts(later, bridge);
  after.gpus[0].pcie_replays.value = 3 + 81;
  const std::vector<Finding> rose = judge_pcie_error_growth(before, after);
  ASSERT_EQ(rose.size(), 3u);
  EXPECT_EQ(rose[0].severity, Severity::Warning);
  EXPECT_NE(rose[0].finding.find("25 correctable PCIe errors on the GPU (0000:18:00.0) during the run"), std::string::npos) << rose[0].finding;
  EXPECT_EQ(rose[1].severity, Severity::Critical);
  EXPECT_NE(rose[1].finding.find("2 uncorrectable PCIe errors on the bridge port above it"), std::string::npos) << rose[1].finding;
  EXPECT_EQ(rose[2].severity, Severity::Critical);
  EXPECT_NE(rose[2].finding.find("81 PCIe replays during the run, more than the 80"), std::string::npos) << rose[2].finding;

  after.gpus[0] = before.gpus[0];
  after.gpus[0].pcie_replays.value = 3 + 80;
  const std::vector<Finding> within = judge_pcie_error_growth(before, after);
  ASSERT_EQ(within.size(), 1u);
  EXPECT_EQ(within[0].severity, Severity::Info);
  after.gpus[0].pcie_replays.value = 0;  // the driver reloaded and the counter started again
  EXPECT_EQ(judge_pcie_error_growth(before, after)[0].severity, Severity::Ok);
}

}  // namespace
}  // namespace gpubench
