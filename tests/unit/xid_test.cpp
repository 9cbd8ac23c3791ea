// Doctor's Xid history on recorded kernel logs (tests/data/doctor/): the three forms it reads the log in, the
// catalogue, and the rule that judges each GPU's Xids inside and outside the window.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "harness/doctor/health_rules.hpp"
#include "harness/doctor/kernel_log.hpp"
#include "harness/doctor/xid_catalogue.hpp"

namespace gpubench {
namespace {

std::string recorded(const std::string& name) {
  std::ifstream in(std::string(GPUBENCH_TEST_DATA) + "/doctor/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << name;
  return text.str();
}

GpuFacts gpu(int index, const std::string& bus_id) {
  GpuFacts facts;
  facts.index = index;
  facts.name = "NVIDIA H200";
  facts.pci_bus_id = bus_id;
  return facts;
}

// Two GPUs at the bus ids of the recorded logs, up for 100 000 s (27.8 h).
NodeFacts node_with_log(const std::string& source, KernelLogFormat format, const std::string& file) {
  NodeFacts node;
  node.gpus = {gpu(0, "0000:18:00.0"), gpu(1, "0000:2a:00.0")};
  node.host.uptime_s.value = 100000.0;
  const ParsedKernelLog parsed = parse_kernel_log(recorded(file), format);
  node.xids.value = XidHistory{source, parsed.first_seconds.value_or(0), parsed.xids};
  return node;
}

std::vector<Finding> xid_findings(const NodeFacts& node, const HealthLimits& limits = {}) {
  std::vector<Finding> out;
  for (const Finding& f : judge_node_health(node, limits)) {
    if (f.check == "xid.errors") out.push_back(f);
  }
  return out;
}

// The one finding whose text holds `text`; fails the test when there is not exactly one.
Finding about(const std::vector<Finding>& findings, const std::string& text) {
  std::vector<Finding> found;
  for (const Finding& f : findings) {
    if (f.finding.find(text) != std::string::npos) found.push_back(f);
  }
  EXPECT_EQ(found.size(), 1u) << text;
  return found.empty() ? Finding{} : found.front();
}

TEST(KernelLog, KmsgRecordsGiveEveryXidWithItsTimeDeviceAndMessage) {
  const ParsedKernelLog log = parse_kernel_log(recorded("kmsg_xids.txt"), KernelLogFormat::Kmsg);
  ASSERT_TRUE(log.first_seconds);
  EXPECT_EQ(*log.first_seconds, 0.0);
  ASSERT_EQ(log.xids.size(), 7u) << "the continuation lines and the other NVRM lines are no Xids";
  EXPECT_DOUBLE_EQ(log.xids[0].seconds_since_boot, 5000.123456);
  EXPECT_EQ(log.xids[0].pci_device, "0000:18:00");
  EXPECT_EQ(log.xids[0].code, 13);
  EXPECT_EQ(log.xids[0].message.rfind("pid=2211, name=python3, Graphics SM Warp Exception", 0), 0u) << log.xids[0].message;
  EXPECT_EQ(log.xids[3].code, 79);
  EXPECT_EQ(log.xids[3].message, "pid='<unknown>', name=<unknown>, GPU has fallen off the bus.");
  EXPECT_EQ(log.xids[6].pci_device, "0000:c1:00");
  EXPECT_EQ(log.xids[6].code, 48);
}

TEST(KernelLog, DmesgAndJournalctlLinesGiveTheSameXids) {
  for (const char* file : {"dmesg_xids.txt", "journalctl_xids.txt"}) {
    const ParsedKernelLog log = parse_kernel_log(recorded(file), KernelLogFormat::Monotonic);
    ASSERT_TRUE(log.first_seconds) << file;
    EXPECT_EQ(*log.first_seconds, 0.0) << file;
    ASSERT_EQ(log.xids.size(), 3u) << file;
    EXPECT_DOUBLE_EQ(log.xids[1].seconds_since_boot, 95000.000017) << file;
    EXPECT_EQ(log.xids[1].code, 79) << file;
    EXPECT_EQ(log.xids[1].pci_device, "0000:2a:00") << file;
    EXPECT_EQ(log.xids[2].pci_device, "0000:2a:00") << file << ": older drivers leave out 'PCI:'";
    EXPECT_EQ(log.xids[2].code, 31) << file;
  }
}

TEST(KernelLog, WhatIsNoXidIsNotReadAsOne) {
  EXPECT_FALSE(parse_xid_message("NVRM: GPU at PCI:0000:2a:00: GPU-5ede5d59", 1));
  EXPECT_FALSE(parse_xid_message("NVRM: Xid (PCI:0000:2a:00): , no code", 1));
  EXPECT_FALSE(parse_xid_message("NVRM: Xid (not a device): 79, text", 1));
  EXPECT_FALSE(parse_xid_message("nvidia-nvswitch0: SXid (PCI:0000:05:00.0): 12028, Non-fatal", 1)) << "NVSwitch SXids are not GPU Xids";
  const std::optional<XidEvent> bare = parse_xid_message("NVRM: Xid (PCI:0000:2A:00): 119", 7);
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->pci_device, "0000:2a:00") << "lower case, as sysfs and CUDA spell it";
  EXPECT_EQ(bare->code, 119);
  EXPECT_EQ(bare->message, "");
  const ParsedKernelLog none = parse_kernel_log("-- No entries --\n", KernelLogFormat::Monotonic);
  EXPECT_FALSE(none.first_seconds) << "a log without a line is no log";
}

TEST(XidCatalogue, KnowsTheXidsOfNvidiasCatalogueWithSeverityAndFix) {
  for (int code : {8, 13, 31, 32, 43, 45, 48, 61, 62, 63, 64, 68, 69, 74, 79, 92, 94, 95, 109, 119, 120, 121, 122, 123, 140, 143, 154}) {
    const XidKind* kind = find_xid_kind(code);
    ASSERT_NE(kind, nullptr) << code;
    EXPECT_EQ(kind->code, code);
    EXPECT_GT(std::string(kind->name).size(), 3u) << code;
    EXPECT_GT(std::string(kind->fix).size(), 20u) << code;
  }
  for (int code : {48, 64, 74, 79, 95, 119, 120, 140}) EXPECT_EQ(find_xid_kind(code)->severity, Severity::Critical) << code;
  for (int code : {13, 31, 63, 92, 94}) EXPECT_EQ(find_xid_kind(code)->severity, Severity::Warning) << code;
  EXPECT_EQ(find_xid_kind(45)->severity, Severity::Info) << "follows other Xids";
  EXPECT_EQ(find_xid_kind(999), nullptr);
  EXPECT_EQ(find_xid_kind(0), nullptr);
}

TEST(XidRules, EachGpusXidsAreJudgedByTheCatalogueInsideTheWindowAndAStepLowerOutside) {
  const std::vector<Finding> findings = xid_findings(node_with_log("/dev/kmsg", KernelLogFormat::Kmsg, "kmsg_xids.txt"));
  const Finding off_the_bus = about(findings, "Xid 79 ");
  EXPECT_EQ(off_the_bus.severity, Severity::Critical);
  EXPECT_EQ(off_the_bus.gpus, std::vector<int>{1});
  EXPECT_NE(off_the_bus.finding.find("GPU has fallen off the bus): 1 since boot, 1 in the last 24 h; the last 83 min ago"),
            std::string::npos) << off_the_bus.finding;
  EXPECT_NE(off_the_bus.fix.find("power-cycle"), std::string::npos);

  const Finding old = about(findings, "Xid 13 ");
  EXPECT_EQ(old.severity, Severity::Info) << "a warning-class Xid only older than the window";
  EXPECT_EQ(old.gpus, std::vector<int>{0});
  EXPECT_NE(old.finding.find("2 since boot, none in the last 24 h"), std::string::npos) << old.finding;
  EXPECT_NE(old.finding.find("Graphics Exception: ESR"), std::string::npos) << "the last one's message: " << old.finding;

  EXPECT_EQ(about(findings, "Xid 94 ").severity, Severity::Warning);
  const Finding recovery = about(findings, "Xid 154 ");
  EXPECT_EQ(recovery.severity, Severity::Critical) << "the GPU needs a node reboot";
  EXPECT_NE(recovery.finding.find("Node Reboot Required"), std::string::npos);

  const Finding unknown = about(findings, "Xid 999 ");
  EXPECT_EQ(unknown.severity, Severity::Warning);
  EXPECT_NE(unknown.finding.find("not in doctor's catalogue"), std::string::npos);
  EXPECT_EQ(unknown.fix, kUnknownXidFix);

  const Finding elsewhere = about(findings, "Xid 48 ");
  EXPECT_EQ(elsewhere.severity, Severity::Critical);
  EXPECT_TRUE(elsewhere.gpus.empty()) << "0000:c1:00 is none of the GPUs checked: the node's";
  EXPECT_NE(elsewhere.finding.find("on PCI 0000:c1:00"), std::string::npos);
  for (const Finding& f : findings) EXPECT_NE(f.severity, Severity::Ok) << "both GPUs have Xids: " << f.finding;
}

TEST(XidRules, ANarrowerWindowLowersWhatIsOlderThanIt) {
  HealthLimits limits;
  limits.xid_window_s = 3600;  // the Xid 79 came 83 minutes ago
  const std::vector<Finding> findings = xid_findings(node_with_log("/dev/kmsg", KernelLogFormat::Kmsg, "kmsg_xids.txt"), limits);
  const Finding off_the_bus = about(findings, "Xid 79 ");
  EXPECT_EQ(off_the_bus.severity, Severity::Warning);
  EXPECT_NE(off_the_bus.finding.find("none in the last 60 min"), std::string::npos) << off_the_bus.finding;
  EXPECT_EQ(about(findings, "Xid 48 ").severity, Severity::Critical) << "8 minutes ago";
}

TEST(XidRules, ARecoveryActionOfNoneIsInfo) {
  NodeFacts node = node_with_log("dmesg", KernelLogFormat::Monotonic, "dmesg_xids.txt");
  node.xids.value->events = {{99000, "0000:18:00", 154, "GPU recovery action changed from 0x1 (GPU Reset Required) to 0x0 (None)"}};
  EXPECT_EQ(about(xid_findings(node), "Xid 154 ").severity, Severity::Info);
}

TEST(XidRules, QuietGpusAreOneOkFindingNamingTheSource) {
  NodeFacts node = node_with_log("journalctl -k", KernelLogFormat::Monotonic, "journalctl_xids.txt");
  node.xids.value->events.clear();
  const std::vector<Finding> findings = xid_findings(node);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::Ok);
  EXPECT_EQ(findings[0].gpus, (std::vector<int>{0, 1}));
  EXPECT_NE(findings[0].finding.find("journalctl -k"), std::string::npos);
}

TEST(XidRules, AWrappedRingBufferIsSaidToMissOlderXids) {
  const std::vector<Finding> findings = xid_findings(node_with_log("/dev/kmsg", KernelLogFormat::Kmsg, "kmsg_wrapped.txt"));
  const Finding remap = about(findings, "Xid 63 ");
  EXPECT_NE(remap.finding.find("/dev/kmsg begins 50 min after boot: older Xids may be missing"), std::string::npos) << remap.finding;
}

TEST(XidRules, AnUnreadableLogIsInfoWithEverySourcesReason) {
  NodeFacts node;
  node.gpus = {gpu(0, "0000:18:00.0")};
  node.xids.why_not = "/dev/kmsg: Operation not permitted; journalctl -k: no kernel messages in it; dmesg: exit status 1";
  const std::vector<Finding> findings = xid_findings(node);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::Info);
  EXPECT_NE(findings[0].finding.find("Operation not permitted"), std::string::npos);
  EXPECT_NE(findings[0].fix.find("dmesg_restrict"), std::string::npos);
}

TEST(XidRules, WithoutAGpuTheXidsStillCountForTheNode) {
  NodeFacts node = node_with_log("dmesg", KernelLogFormat::Monotonic, "dmesg_xids.txt");
  node.gpus.clear();
  node.cuda_why_not = "cudaErrorNoDevice: no CUDA-capable device is detected";
  const std::vector<Finding> findings = xid_findings(node);
  const Finding off_the_bus = about(findings, "Xid 79 ");
  EXPECT_EQ(off_the_bus.severity, Severity::Critical);
  EXPECT_TRUE(off_the_bus.gpus.empty());
  EXPECT_NE(off_the_bus.finding.find("on PCI 0000:2a:00"), std::string::npos);
}

TEST(XidRules, WithoutAnUptimeEveryXidCountsAsRecent) {
  NodeFacts node = node_with_log("dmesg", KernelLogFormat::Monotonic, "dmesg_xids.txt");
  node.host.uptime_s = {std::nullopt, "/proc/uptime unreadable"};
  const Finding old = about(xid_findings(node), "Xid 13 ");
  EXPECT_EQ(old.severity, Severity::Warning);
  EXPECT_NE(old.finding.find("the uptime is unknown"), std::string::npos) << old.finding;
}

}  // namespace
}  // namespace gpubench
