// The health rules of `gpubench doctor`, on facts built by hand: each rule fires where it should, stays quiet
// where it should not, and says "cannot check" rather than guessing when a reading is missing.
#include "harness/doctor/health_rules.hpp"

#include <gtest/gtest.h>
#include <nvml.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/doctor/gpu_identity.hpp"
#include "harness/doctor/host_facts.hpp"
#include "harness/report/console_report.hpp"
#include "harness/report/json_report.hpp"

namespace gpubench {
namespace {

std::vector<int> cpu_range(int first, int last) {
  std::vector<int> cpus;
  for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
  return cpus;
}

std::vector<NvLinkFacts> nvlinks(int count, int active) {
  std::vector<NvLinkFacts> links;
  for (int i = 0; i < count; ++i) {
    NvLinkFacts link;
    link.link = static_cast<unsigned>(i);
    link.active = i < active;
    if (link.active) {
      link.errors.value = NvLinkCounters{0, 0, 0, 0};
      link.speed_mb_per_s.value = 26562;
    }
    links.push_back(link);
  }
  return links;
}

// An idle, healthy H200 of an 8-GPU NVSwitch board, on NUMA node 0.
GpuFacts healthy_gpu(int index) {
  GpuFacts gpu;
  gpu.index = index;
  gpu.name = "NVIDIA H200";
  gpu.pci_bus_id = "0000:" + std::to_string(10 + index) + ":00.0";
  gpu.uuid = "GPU-00000000-0000-0000-0000-00000000000" + std::to_string(index);
  gpu.serial = "165392404228" + std::to_string(index);
  gpu.memory_bytes = 150109880320;
  gpu.nvml_index.value = static_cast<unsigned>(index);
  gpu.vbios_version.value = "96.00.AF.00.01";
  gpu.persistence_mode.value = true;
  gpu.ecc_mode.value = EccMode{true, true};
  gpu.ecc_volatile_corrected.value = 0;
  gpu.ecc_volatile_uncorrected.value = 0;
  gpu.ecc_aggregate_corrected.value = 0;
  gpu.ecc_aggregate_uncorrected.value = 0;
  gpu.retired_pages.why_not = "nvmlDeviceGetRetiredPages: Not Supported";
  gpu.remapped_rows.value = RemappedRows{};
  gpu.pcie.value = PcieLink{5, 16, 5, 16};
  gpu.pcie_replays.value = 0;
  gpu.pcie_aer = {{gpu.pci_bus_id, true, {AerCounts{}, ""}}, {"0000:0" + std::to_string(index) + ":01.0", false, {AerCounts{}, ""}}};
  gpu.nvlinks.value = nvlinks(18, 18);
  gpu.clock_event_reasons.value = nvmlClocksEventReasonGpuIdle;
  gpu.temperature_c.value = 35;
  gpu.slowdown_temperature_c.value = 87;
  gpu.power_limit_mw.value = 700000;
  gpu.default_power_limit_mw.value = 700000;
  gpu.other_processes.value = std::vector<GpuProcess>{};
  gpu.numa_node = 0;
  gpu.local_cpus.value = cpu_range(0, 55);
  return gpu;
}

NodeFacts healthy_node(int gpu_count = 8) {
  NodeFacts node;
  node.cuda_device_count = gpu_count;
  node.nvml_device_count.value = static_cast<unsigned>(gpu_count);
  node.driver_version.value = "580.159.04";
  node.xids.value = XidHistory{"/dev/kmsg", 0.0, {}};
  for (int i = 0; i < gpu_count; ++i) node.gpus.push_back(healthy_gpu(i));
  for (int a = 0; a < gpu_count; ++a) {
    for (int b = a + 1; b < gpu_count; ++b) {
      GpuPairFacts pair;
      pair.a = a;
      pair.b = b;
      pair.link_kind = "NV18";
      pair.nvlinks = 18;
      pair.via_nvswitch = true;
      pair.peer_access.value = true;
      node.pairs.push_back(pair);
    }
  }
  node.host.allowed_cpus.value = cpu_range(0, 55);
  node.host.governors.value = std::map<std::string, std::vector<int>>{{"performance", cpu_range(0, 111)}};
  node.host.uptime_s.value = 86400.0;
  return node;
}

// The pairs of a 4-GPU node with direct links, every pair joined by `nvlinks` except the ones overridden.
std::vector<GpuPairFacts> direct_pairs(int gpus, int nvlinks, const std::map<std::pair<int, int>, int>& overrides) {
  std::vector<GpuPairFacts> pairs;
  for (int a = 0; a < gpus; ++a) {
    for (int b = a + 1; b < gpus; ++b) {
      GpuPairFacts pair;
      pair.a = a;
      pair.b = b;
      const auto found = overrides.find({a, b});
      pair.nvlinks = found == overrides.end() ? nvlinks : found->second;
      pair.link_kind = pair.nvlinks > 0 ? "NV" + std::to_string(pair.nvlinks) : "SYS";
      pair.peer_access.value = true;
      pairs.push_back(pair);
    }
  }
  return pairs;
}

std::vector<Finding> with_check(const std::vector<Finding>& findings, const std::string& check) {
  std::vector<Finding> out;
  std::copy_if(findings.begin(), findings.end(), std::back_inserter(out), [&](const Finding& f) { return f.check == check; });
  return out;
}

// The one finding of `check` that is not ok; fails the test when there is not exactly one.
Finding problem(const std::vector<Finding>& findings, const std::string& check) {
  std::vector<Finding> found;
  for (const Finding& f : with_check(findings, check)) {
    if (f.severity != Severity::Ok) found.push_back(f);
  }
  EXPECT_EQ(found.size(), 1u) << check;
  return found.empty() ? Finding{} : found.front();
}

bool quiet(const std::vector<Finding>& findings, const std::string& check) {
  const std::vector<Finding> found = with_check(findings, check);
  return std::all_of(found.begin(), found.end(), [](const Finding& f) { return f.severity == Severity::Ok; });
}

bool mentions(const Finding& f, const std::string& text) { return f.finding.find(text) != std::string::npos; }

// The tests read alike on purpose: each breaks one reading of a healthy node and checks the one finding it gives.
TEST(HealthRules, AHealthyNodeGivesOnlyOkFindingsOnePerCheck) {
  const std::vector<Finding> findings = judge_node_health(healthy_node());
  for (const Finding& f : findings) EXPECT_EQ(f.severity, Severity::Ok) << f.check << ": " << f.finding;
  EXPECT_FALSE(any_critical(findings));
  for (const char* check : {"persistence.disabled", "pcie.link_below_max", "clocks.throttling", "temperature.near_slowdown",
                            "power.limit_below_default", "processes.other", "ecc.disabled", "ecc.uncorrectable_errors",
                            "ecc.correctable_errors", "memory.row_remap", "nvlink.links_down", "nvlink.errors",
                            "topology.asymmetric_nvlinks", "p2p.unavailable", "numa.process_placement", "cpu.governor", "env.variables",
                            "pcie.aer_errors", "pcie.replays", "xid.errors"}) {
    const std::vector<Finding> found = with_check(findings, check);
    ASSERT_EQ(found.size(), 1u) << check;
  }
  EXPECT_EQ(with_check(findings, "persistence.disabled")[0].gpus, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_TRUE(with_check(findings, "memory.retired_pages").empty()) << "H200s remap rows; page retirement does not apply";
}

TEST(HealthRules, NoGpuAndNoNvmlAreCriticalAndHostFindingsStillCome) {
  NodeFacts node;
  node.cuda_why_not = "cudaErrorNoDevice: no CUDA-capable device is detected";
  node.nvml_why_not = "NVML unavailable: libnvidia-ml.so.1: cannot open shared object file";
  node.host.governors.why_not = "no cpufreq";
  node.host.variables = {{"CUDA_LAUNCH_BLOCKING", "1"}};
  const std::vector<Finding> findings = judge_node_health(node);
  ASSERT_GE(findings.size(), 4u);
  EXPECT_EQ(findings[0].check, "cuda.no_gpu");
  EXPECT_EQ(findings[0].severity, Severity::Critical);
  EXPECT_TRUE(mentions(findings[0], "cudaErrorNoDevice"));
  EXPECT_EQ(findings[1].check, "nvml.unavailable");
  EXPECT_EQ(findings[1].severity, Severity::Critical);
  EXPECT_TRUE(mentions(findings[1], "libnvidia-ml.so.1"));
  EXPECT_EQ(problem(findings, "env.cuda_launch_blocking").severity, Severity::Warning);
  EXPECT_EQ(problem(findings, "cpu.governor").severity, Severity::Info);
  EXPECT_TRUE(any_critical(findings));
  for (std::size_t i = 1; i < findings.size(); ++i) EXPECT_GE(findings[i - 1].severity, findings[i].severity) << "worst first";
}

TEST(HealthRules, WithoutNvmlNoGpuCheckRunsButThePlacementStillDoes) {
  NodeFacts node = healthy_node(2);
  node.nvml_why_not = "NVML unavailable: libnvidia-ml.so.1 lacks nvmlInit_v2";
  for (GpuFacts& gpu : node.gpus) gpu.nvml_why_not = node.nvml_why_not;
  const std::vector<Finding> findings = judge_node_health(node);
  EXPECT_EQ(problem(findings, "nvml.unavailable").severity, Severity::Critical);
  EXPECT_TRUE(with_check(findings, "persistence.disabled").empty());
  EXPECT_TRUE(with_check(findings, "p2p.unavailable").empty());
  EXPECT_TRUE(with_check(findings, "nvml.gpu_not_found").empty()) << "one finding says NVML is missing, not one per GPU";
  EXPECT_EQ(with_check(findings, "numa.process_placement").size(), 1u);
}

TEST(HealthRules, AGpuNvmlCannotFindIsSkippedWithAnInfo) {
  NodeFacts node = healthy_node(2);
  node.gpus[1].nvml_why_not = "nvmlDeviceGetHandleByPciBusId found no device";
  node.gpus[1].persistence_mode.value = false;  // never judged: NVML did not read it
  const std::vector<Finding> findings = judge_node_health(node);
  const Finding f = problem(findings, "nvml.gpu_not_found");
  EXPECT_EQ(f.severity, Severity::Info);
  EXPECT_EQ(f.gpus, std::vector<int>{1});
  EXPECT_TRUE(quiet(findings, "persistence.disabled"));
  EXPECT_EQ(with_check(findings, "persistence.disabled")[0].gpus, std::vector<int>{0});
}

TEST(HealthRules, PersistenceOffWarnsForThatGpuOnly) {
  NodeFacts node = healthy_node(4);
  node.gpus[2].persistence_mode.value = false;
  const std::vector<Finding> findings = judge_node_health(node);
  const Finding f = problem(findings, "persistence.disabled");
  EXPECT_EQ(f.severity, Severity::Warning);
  EXPECT_EQ(f.gpus, std::vector<int>{2});
  EXPECT_NE(f.fix.find("nvidia-persistenced"), std::string::npos);
  EXPECT_NE(f.fix.find("-pm 1"), std::string::npos);
  const std::vector<Finding> all = with_check(findings, "persistence.disabled");
  EXPECT_EQ(all.back().severity, Severity::Ok);
  EXPECT_EQ(all.back().gpus, (std::vector<int>{0, 1, 3}));
}

TEST(HealthRules, MissingNvmlFunctionsAreInfoNeverAFault) {
  NodeFacts node = healthy_node(1);
  GpuFacts& gpu = node.gpus[0];
  gpu.persistence_mode = {std::nullopt, "nvmlDeviceGetPersistenceMode: not in this driver's NVML"};
  gpu.remapped_rows = {std::nullopt, "nvmlDeviceGetRemappedRows: not in this driver's NVML"};
  gpu.retired_pages = {std::nullopt, "nvmlDeviceGetRetiredPages: not in this driver's NVML"};
  gpu.other_processes = {std::nullopt, "nvmlDeviceGetComputeRunningProcesses: not in this driver's NVML"};
  gpu.clock_event_reasons = {std::nullopt, "nvmlDeviceGetCurrentClocksEventReasons: not in this driver's NVML"};
  const std::vector<Finding> findings = judge_node_health(node);
  for (const char* check : {"persistence.disabled", "memory.row_remap", "processes.other", "clocks.throttling"}) {
    const Finding f = problem(findings, check);
    EXPECT_EQ(f.severity, Severity::Info) << check;
    EXPECT_TRUE(mentions(f, "cannot check")) << f.finding;
    EXPECT_TRUE(mentions(f, "not in this driver's NVML")) << f.finding;
  }
  EXPECT_FALSE(any_critical(findings));
}

TEST(HealthRules, EccOffWarnsAndSaysWhenAResetTurnsItOn) {
  NodeFacts node = healthy_node(2);
  node.gpus[0].ecc_mode.value = EccMode{false, false};
  node.gpus[1].ecc_mode.value = EccMode{false, true};
  for (GpuFacts& gpu : node.gpus) {
    gpu.ecc_volatile_uncorrected = {std::nullopt, "nvmlDeviceGetTotalEccErrors: Not Supported"};
    gpu.ecc_aggregate_uncorrected = gpu.ecc_volatile_uncorrected;
    gpu.ecc_volatile_corrected = gpu.ecc_volatile_uncorrected;
  }
  const std::vector<Finding> findings = judge_node_health(node);
  const std::vector<Finding> ecc = with_check(findings, "ecc.disabled");
  ASSERT_EQ(ecc.size(), 2u);
  EXPECT_EQ(ecc[0].severity, Severity::Warning);
  EXPECT_NE(ecc[0].fix.find("-e 1"), std::string::npos);
  EXPECT_TRUE(mentions(ecc[1], "next GPU reset"));
  EXPECT_TRUE(with_check(findings, "ecc.uncorrectable_errors").empty()) << "no counts to judge with ECC off";
  EXPECT_TRUE(with_check(findings, "ecc.correctable_errors").empty());
}

TEST(HealthRules, UncorrectableErrorsSinceTheDriverLoadedAreCritical) {
  NodeFacts node = healthy_node(2);
  node.gpus[0].ecc_volatile_uncorrected.value = 2;
  node.gpus[0].ecc_aggregate_uncorrected.value = 5;
  const std::vector<Finding> findings = judge_node_health(node);
  const Finding f = problem(findings, "ecc.uncorrectable_errors");
  EXPECT_EQ(f.severity, Severity::Critical);
  EXPECT_EQ(f.gpus, std::vector<int>{0});
  EXPECT_TRUE(mentions(f, "2 uncorrectable")) << f.finding;
  EXPECT_TRUE(mentions(f, "5 over the GPU's life")) << f.finding;
  EXPECT_TRUE(any_critical(findings));
}

TEST(HealthRules, UncorrectableErrorsOnlyInTheLifetimeCountWarn) {
  NodeFacts node = healthy_node(1);
  node.gpus[0].ecc_aggregate_uncorrected.value = 3;
  const Finding f = problem(judge_node_health(node), "ecc.uncorrectable_errors");
  EXPECT_EQ(f.severity, Severity::Warning);
  EXPECT_TRUE(mentions(f, "none since the driver loaded")) << f.finding;
}

TEST(HealthRules, CorrectableErrorsWarnFromTheThreshold) {
  NodeFacts node = healthy_node(2);
  node.gpus[0].ecc_volatile_corrected.value = 99;
  node.gpus[1].ecc_volatile_corrected.value = 100;
  const std::vector<Finding> findings = judge_node_health(node);
  const Finding f = problem(findings, "ecc.correctable_errors");
  EXPECT_EQ(f.severity, Severity::Warning);
  EXPECT_EQ(f.gpus, std::vector<int>{1});
  HealthLimits strict;
  strict.correctable_ecc_errors = 50;
  const std::vector<Finding> stricter = with_check(judge_node_health(node, strict), "ecc.correctable_errors");
  EXPECT_EQ(stricter.size(), 2u);
  EXPECT_TRUE(quiet(judge_node_health(healthy_node(1)), "ecc.correctable_errors"));
}

TEST(HealthRules, UnreadableEccCountsGiveOneInfoNotTwo) {
  NodeFacts node = healthy_node(1);
  node.gpus[0].ecc_volatile_uncorrected = {std::nullopt, "nvmlDeviceGetTotalEccErrors: Not Supported"};
  node.gpus[0].ecc_aggregate_uncorrected = node.gpus[0].ecc_volatile_uncorrected;
  node.gpus[0].ecc_volatile_corrected = node.gpus[0].ecc_volatile_uncorrected;
  const std::vector<Finding> findings = judge_node_health(node);
  EXPECT_EQ(problem(findings, "ecc.uncorrectable_errors").severity, Severity::Info);
  EXPECT_TRUE(with_check(findings, "ecc.correctable_errors").empty());
}

TEST(HealthRules, PendingOrFailedRowRemapsAreCritical) {
  NodeFacts node = healthy_node(3);
  node.gpus[0].remapped_rows.value = RemappedRows{0, 1, true, false};
  node.gpus[1].remapped_rows.value = RemappedRows{2, 3, false, true};
  node.gpus[2].remapped_rows.value = RemappedRows{1, 1, false, false};
  const std::vector<Finding> findings = with_check(judge_node_health(node), "memory.row_remap");
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].severity, Severity::Critical);
  EXPECT_EQ(findings[0].gpus, std::vector<int>{0});
  EXPECT_TRUE(mentions(findings[0], "pending"));
  EXPECT_NE(findings[0].fix.find("nvidia-smi -r"), std::string::npos);
  EXPECT_EQ(findings[1].severity, Severity::Critical);
  EXPECT_EQ(findings[1].gpus, std::vector<int>{1});
  EXPECT_TRUE(mentions(findings[1], "failed"));
  EXPECT_NE(findings[1].fix.find("RMA"), std::string::npos);
  EXPECT_EQ(findings[2].severity, Severity::Info) << "rows remapped and in effect: worth knowing, nothing to do";
  EXPECT_EQ(findings[2].gpus, std::vector<int>{2});
}

TEST(HealthRules, PageRetirementIsJudgedOnGpusBeforeAmpere) {
  NodeFacts node = healthy_node(2);
  for (GpuFacts& gpu : node.gpus) {
    gpu.remapped_rows = {std::nullopt, "nvmlDeviceGetRemappedRows: Not Supported"};
    gpu.retired_pages.value = RetiredPages{};
  }
  node.gpus[1].retired_pages.value = RetiredPages{1, 2, true};
  const std::vector<Finding> findings = judge_node_health(node);
  EXPECT_TRUE(with_check(findings, "memory.row_remap").empty()) << "row remapping does not apply there";
  const Finding f = problem(findings, "memory.retired_pages");
  EXPECT_EQ(f.severity, Severity::Critical);
  EXPECT_EQ(f.gpus, std::vector<int>{1});
  EXPECT_TRUE(mentions(f, "2 pages retired after uncorrectable")) << f.finding;
}

TEST(HealthRules, NeitherRowRemapNorPageRetirementReadableIsOneInfo) {
  NodeFacts node = healthy_node(1);
  node.gpus[0].remapped_rows = {std::nullopt, "nvmlDeviceGetRemappedRows: Not Supported"};
  const std::vector<Finding> findings = judge_node_health(node);
  EXPECT_EQ(problem(findings, "memory.row_remap").severity, Severity::Info);
  EXPECT_TRUE(with_check(findings, "memory.retired_pages").empty());
}

TEST(HealthRules, PcieLinkBelowMaxUnderLoadWarns) {
  NodeFacts node = healthy_node(2);
  node.gpus[0].pcie.value = PcieLink{1, 16, 5, 16};
  node.gpus[0].pcie_under_load.value = PcieLink{4, 16, 5, 16};
  node.gpus[1].pcie.value = PcieLink{1, 16, 5, 16};
  node.gpus[1].pcie_under_load.value = PcieLink{5, 16, 5, 16};  // idle power saving only
  const std::vector<Finding> findings = judge_node_health(node);
  const Finding f = problem(findings, "pcie.link_below_max");
  EXPECT_EQ(f.severity, Severity::Warning);
  EXPECT_EQ(f.gpus, std::vector<int>{0});
  EXPECT_TRUE(mentions(f, "gen 4 x16 while copying")) << f.finding;
  EXPECT_TRUE(mentions(f, "gen 5 x16")) << f.finding;
  EXPECT_EQ(with_check(findings, "pcie.link_below_max").back().gpus, std::vector<int>{1});
}

TEST(HealthRules, PcieGenerationDropOnAnIdleGpuIsOnlyInfoWithoutALoadReading) {
  NodeFacts node = healthy_node(3);
  for (GpuFacts& gpu : node.gpus) gpu.pcie_under_load.why_not = "cudaMalloc: out of memory";
  node.gpus[0].pcie.value = PcieLink{1, 16, 5, 16};  // idle
  node.gpus[1].pcie.value = PcieLink{3, 16, 5, 16};
  node.gpus[1].clock_event_reasons.value = 0;  // busy
  node.gpus[2].pcie.value = PcieLink{5, 8, 5, 16};  // lanes missing, idle or not
  const std::vector<Finding> findings = with_check(judge_node_health(node), "pcie.link_below_max");
  ASSERT_EQ(findings.size(), 3u);
  const auto of_gpu = [&](int gpu) {
    return *std::find_if(findings.begin(), findings.end(), [gpu](const Finding& f) { return f.gpus == std::vector<int>{gpu}; });
  };
  EXPECT_EQ(of_gpu(0).severity, Severity::Info);
  EXPECT_TRUE(mentions(of_gpu(0), "idle")) << of_gpu(0).finding;
  EXPECT_TRUE(mentions(of_gpu(0), "out of memory")) << "says why it was not read under load";
  EXPECT_NE(of_gpu(0).fix.find("re-check under load"), std::string::npos);
  EXPECT_EQ(of_gpu(1).severity, Severity::Warning);
  EXPECT_EQ(of_gpu(2).severity, Severity::Warning);
  EXPECT_TRUE(mentions(of_gpu(2), "fewer lanes")) << of_gpu(2).finding;
}

TEST(HealthRules, ThrottleReasonsBySeverity) {
  NodeFacts node = healthy_node(6);
  node.gpus[0].clock_event_reasons.value = nvmlClocksThrottleReasonHwSlowdown | nvmlClocksThrottleReasonHwThermalSlowdown;
  node.gpus[1].clock_event_reasons.value = nvmlClocksThrottleReasonHwSlowdown | nvmlClocksThrottleReasonHwPowerBrakeSlowdown;
  node.gpus[2].clock_event_reasons.value = nvmlClocksThrottleReasonHwSlowdown;
  node.gpus[3].clock_event_reasons.value = nvmlClocksEventReasonSwThermalSlowdown;
  node.gpus[4].clock_event_reasons.value = nvmlClocksEventReasonSwPowerCap | nvmlClocksEventReasonGpuIdle;
  node.gpus[5].clock_event_reasons.value = nvmlClocksEventReasonSwPowerCap;  // capped under load: normal
  const std::vector<Finding> findings = with_check(judge_node_health(node), "clocks.throttling");
  ASSERT_EQ(findings.size(), 6u);  // one each for GPUs 0-4, then the ok for GPU 5
  EXPECT_EQ(findings[0].gpus, std::vector<int>{0});
  EXPECT_TRUE(mentions(findings[0], "thermal")) << "hw slowdown is reported once, by its named cause";
  EXPECT_EQ(findings[1].gpus, std::vector<int>{1});
  EXPECT_TRUE(mentions(findings[1], "power-brake"));
  EXPECT_EQ(findings[2].gpus, std::vector<int>{2});
  for (int i = 0; i < 3; ++i) EXPECT_EQ(findings[i].severity, Severity::Critical);
  EXPECT_EQ(findings[3].severity, Severity::Warning);
  EXPECT_TRUE(mentions(findings[3], "software thermal"));
  EXPECT_EQ(findings[4].severity, Severity::Warning);
  EXPECT_TRUE(mentions(findings[4], "while the GPU is idle"));
  EXPECT_EQ(findings[5].severity, Severity::Ok);
  EXPECT_EQ(findings[5].gpus, std::vector<int>{5});
}

TEST(HealthRules, TemperatureNearOrAtSlowdown) {
  NodeFacts node = healthy_node(4);
  node.gpus[0].temperature_c.value = 77;  // exactly 10 °C below
  node.gpus[1].temperature_c.value = 87;
  node.gpus[2].temperature_c.value = 76;
  node.gpus[3].slowdown_temperature_c = {std::nullopt, "nvmlDeviceGetTemperatureThreshold: Not Supported"};
  const std::vector<Finding> findings = with_check(judge_node_health(node), "temperature.near_slowdown");
  ASSERT_EQ(findings.size(), 4u);
  EXPECT_EQ(findings[0].severity, Severity::Critical);
  EXPECT_EQ(findings[0].gpus, std::vector<int>{1});
  EXPECT_EQ(findings[1].severity, Severity::Warning);
  EXPECT_EQ(findings[1].gpus, std::vector<int>{0});
  EXPECT_TRUE(mentions(findings[1], "77 °C")) << findings[1].finding;
  EXPECT_EQ(findings[2].severity, Severity::Info);
  EXPECT_EQ(findings[2].gpus, std::vector<int>{3});
  EXPECT_EQ(findings[3].severity, Severity::Ok);
  EXPECT_EQ(findings[3].gpus, std::vector<int>{2});
}

TEST(HealthRules, PowerLimitBelowTheDefaultWarns) {
  NodeFacts node = healthy_node(2);
  node.gpus[1].power_limit_mw.value = 500000;
  const Finding f = problem(judge_node_health(node), "power.limit_below_default");
  EXPECT_EQ(f.severity, Severity::Warning);
  EXPECT_EQ(f.gpus, std::vector<int>{1});
  EXPECT_TRUE(mentions(f, "500 W")) << f.finding;
  EXPECT_NE(f.fix.find("-pl 700"), std::string::npos) << f.fix;
}

TEST(HealthRules, OtherProcessesAreNamedWithTheirMemory) {
  NodeFacts node = healthy_node(2);
  node.gpus[1].other_processes.value = std::vector<GpuProcess>{{4242, std::uint64_t{3} << 30, "python3"}, {77, std::nullopt, ""}};
  const Finding f = problem(judge_node_health(node), "processes.other");
  EXPECT_EQ(f.severity, Severity::Warning);
  EXPECT_EQ(f.gpus, std::vector<int>{1});
  EXPECT_TRUE(mentions(f, "pid 4242 (python3, 3.0 GiB)")) << f.finding;
  EXPECT_TRUE(mentions(f, "pid 77")) << f.finding;
}

TEST(HealthRules, NvLinksDownOnOneGpuWarnWithTheLinksNamed) {
  NodeFacts node = healthy_node(8);
  node.gpus[3].nvlinks.value = nvlinks(18, 16);
  const std::vector<Finding> findings = judge_node_health(node);
  const Finding f = problem(findings, "nvlink.links_down");
  EXPECT_EQ(f.severity, Severity::Warning);
  EXPECT_EQ(f.gpus, std::vector<int>{3});
  EXPECT_TRUE(mentions(f, "2 of 18 NVLinks inactive (links 16, 17)")) << f.finding;
  EXPECT_TRUE(mentions(f, "have 18 active")) << f.finding;
  EXPECT_TRUE(quiet(findings, "topology.asymmetric_nvlinks")) << "NVSwitch pairs: the per-GPU finding says it once";
}

TEST(HealthRules, NvLinksInactiveOnEveryGpuAlikeAreInfo) {
  NodeFacts node = healthy_node(2);
  for (GpuFacts& gpu : node.gpus) gpu.nvlinks.value = nvlinks(18, 12);  // e.g. bridged PCIe cards
  const std::vector<Finding> both = with_check(judge_node_health(node), "nvlink.links_down");
  ASSERT_EQ(both.size(), 2u);
  for (const Finding& f : both) {
    EXPECT_EQ(f.severity, Severity::Info);
    EXPECT_TRUE(mentions(f, "as on every other NVIDIA H200 here")) << f.finding;
  }
}

TEST(HealthRules, GpusWithoutNvLinkSkipTheNvLinkChecks) {
  NodeFacts node = healthy_node(2);
  for (GpuFacts& gpu : node.gpus) gpu.nvlinks.value = std::vector<NvLinkFacts>{};
  for (GpuPairFacts& pair : node.pairs) {
    pair.link_kind = "SYS";
    pair.nvlinks = 0;
    pair.via_nvswitch = false;
    pair.peer_access.value = false;
  }
  const std::vector<Finding> findings = judge_node_health(node);
  for (const char* check : {"nvlink.links_down", "nvlink.errors", "topology.asymmetric_nvlinks", "p2p.unavailable"}) {
    EXPECT_TRUE(with_check(findings, check).empty()) << check;
  }
}

TEST(HealthRules, NvLinkRecoveryIsCriticalReplaysWarnAndCrcErrorsWarnOnlyAtDcgmsRate) {
  NodeFacts node = healthy_node(5);
  node.host.uptime_s.value = 1000.0;
  (*node.gpus[0].nvlinks.value)[5].errors.value = NvLinkCounters{0, 2, 0, 0};
  (*node.gpus[1].nvlinks.value)[7].errors.value = NvLinkCounters{60, 0, 30, 10};
  (*node.gpus[2].nvlinks.value)[3].errors.value = NvLinkCounters{0, 0, 100000, 20000};  // 120/s at least
  // As seen on a healthy H200 node after an hour of NVLink traffic: a few hundred, no replay.
  (*node.gpus[3].nvlinks.value)[7].errors.value = NvLinkCounters{0, 0, 457, std::nullopt};
  const std::vector<Finding> findings = with_check(judge_node_health(node), "nvlink.errors");
  ASSERT_EQ(findings.size(), 5u);
  EXPECT_EQ(findings[0].severity, Severity::Critical);
  EXPECT_EQ(findings[0].gpus, std::vector<int>{0});
  EXPECT_TRUE(mentions(findings[0], "link 5: 2")) << findings[0].finding;
  EXPECT_EQ(findings[1].severity, Severity::Warning);
  EXPECT_EQ(findings[1].gpus, std::vector<int>{1});
  EXPECT_TRUE(mentions(findings[1], "replay errors (link 7: 60)")) << findings[1].finding;
  EXPECT_EQ(findings[2].severity, Severity::Warning);
  EXPECT_EQ(findings[2].gpus, std::vector<int>{2});
  EXPECT_TRUE(mentions(findings[2], "link 3: 120000 (at least 120/s)")) << findings[2].finding;
  EXPECT_EQ(findings[3].severity, Severity::Info);
  EXPECT_EQ(findings[3].gpus, std::vector<int>{3});
  EXPECT_TRUE(mentions(findings[3], "link 7: 457")) << findings[3].finding;
  EXPECT_EQ(findings[4].severity, Severity::Ok);
  EXPECT_EQ(findings[4].gpus, std::vector<int>{4});
}

TEST(HealthRules, NvLinkCrcErrorsWithoutAnUptimeAreInfoWithTheReason) {
  NodeFacts node = healthy_node(1);
  node.host.uptime_s = {std::nullopt, "/proc/uptime unreadable"};
  (*node.gpus[0].nvlinks.value)[0].errors.value = NvLinkCounters{0, 0, 1000000, 0};
  const Finding f = problem(judge_node_health(node), "nvlink.errors");
  EXPECT_EQ(f.severity, Severity::Info);
  EXPECT_TRUE(mentions(f, "/proc/uptime unreadable")) << f.finding;
}

TEST(HealthRules, UnreadableNvLinkCountersAreInfo) {
  NodeFacts node = healthy_node(1);
  for (NvLinkFacts& link : *node.gpus[0].nvlinks.value) link.errors = {std::nullopt, "nvmlDeviceGetNvLinkErrorCounter: Not Supported"};
  const Finding f = problem(judge_node_health(node), "nvlink.errors");
  EXPECT_EQ(f.severity, Severity::Info);
  EXPECT_TRUE(mentions(f, "Not Supported"));
}

TEST(HealthRules, AGpuWithNoActiveNvLinkAmongLinkedSiblingsIsAsymmetric) {
  NodeFacts node = healthy_node(4);
  node.gpus[2].nvlinks.value = nvlinks(18, 0);
  const std::vector<Finding> findings = judge_node_health(node);
  const Finding f = problem(findings, "topology.asymmetric_nvlinks");
  EXPECT_EQ(f.severity, Severity::Warning);
  EXPECT_EQ(f.gpus, std::vector<int>{2});
  EXPECT_TRUE(mentions(f, "no active NVLink")) << f.finding;
  EXPECT_TRUE(quiet(findings, "nvlink.links_down")) << "said once, by the asymmetry check";
}

TEST(HealthRules, ADirectPairWithFewerNvLinksThanTheOthersIsAsymmetric) {
  NodeFacts node = healthy_node(4);
  node.pairs = direct_pairs(4, 4, {{{1, 2}, 2}});
  const Finding f = problem(judge_node_health(node), "topology.asymmetric_nvlinks");
  EXPECT_EQ(f.severity, Severity::Warning);
  EXPECT_EQ(f.gpus, (std::vector<int>{1, 2}));
  EXPECT_TRUE(mentions(f, "NV2")) << f.finding;
  EXPECT_TRUE(mentions(f, "5 of the node's 6 pairs have NV4")) << f.finding;
}

TEST(HealthRules, ATopologyUnevenByDesignIsNotFlagged) {
  NodeFacts node = healthy_node(4);
  node.pairs = direct_pairs(4, 0, {{{0, 1}, 4}, {{2, 3}, 4}});  // two bridged pairs, the rest over PCIe
  EXPECT_TRUE(quiet(judge_node_health(node), "topology.asymmetric_nvlinks"));
}

TEST(HealthRules, PairsWithoutPeerAccessWhereTheLinkAllowsIt) {
  NodeFacts node = healthy_node(4);
  node.pairs = direct_pairs(4, 0, {});
  for (GpuPairFacts& pair : node.pairs) pair.peer_access.value = false;  // SYS: expected
  node.pairs[0].link_kind = "NV18";  // 0-1 over NVSwitch
  node.pairs[0].via_nvswitch = true;
  node.pairs[5].link_kind = "PIX";  // 2-3 under one PCIe switch
  const std::vector<Finding> findings = with_check(judge_node_health(node), "p2p.unavailable");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].severity, Severity::Warning);
  EXPECT_EQ(findings[0].gpus, (std::vector<int>{0, 1}));
  EXPECT_NE(findings[0].fix.find("nvidia-fabricmanager"), std::string::npos);
  EXPECT_EQ(findings[1].gpus, (std::vector<int>{2, 3}));
  EXPECT_NE(findings[1].fix.find("ACS"), std::string::npos);
}

TEST(HealthRules, PeerAccessOkListsOnlyGpusWhosePairsAllPassed) {
  NodeFacts node = healthy_node(3);
  node.pairs[1].peer_access.value = false;  // 0-2
  const std::vector<Finding> findings = with_check(judge_node_health(node), "p2p.unavailable");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].gpus, (std::vector<int>{0, 2}));
  EXPECT_EQ(findings[1].severity, Severity::Ok);
  EXPECT_EQ(findings[1].gpus, std::vector<int>{1});
}

TEST(HealthRules, AProcessAwayFromItsGpusNumaNodeWarnsWithTheCommand) {
  NodeFacts node = healthy_node(2);
  node.gpus[1].numa_node = 1;
  node.gpus[1].local_cpus.value = cpu_range(56, 111);
  const std::vector<Finding> findings = with_check(judge_node_health(node), "numa.process_placement");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].severity, Severity::Warning);
  EXPECT_EQ(findings[0].gpus, std::vector<int>{1});
  EXPECT_TRUE(mentions(findings[0], "CPUs 0-55, none of them on NUMA node 1 (CPUs 56-111)")) << findings[0].finding;
  EXPECT_NE(findings[0].fix.find("numactl --cpunodebind=1 --membind=1"), std::string::npos) << findings[0].fix;
  EXPECT_NE(findings[0].fix.find("taskset -c 56-111"), std::string::npos) << findings[0].fix;
  EXPECT_EQ(findings[1].severity, Severity::Ok);
  EXPECT_EQ(findings[1].gpus, std::vector<int>{0});
}

TEST(HealthRules, AnUnboundProcessOnATwoSocketNodeIsInfo) {
  NodeFacts node = healthy_node(2);
  node.gpus[1].numa_node = 1;
  node.gpus[1].local_cpus.value = cpu_range(56, 111);
  node.host.allowed_cpus.value = cpu_range(0, 111);
  const std::vector<Finding> findings = with_check(judge_node_health(node), "numa.process_placement");
  ASSERT_EQ(findings.size(), 2u);
  for (const Finding& f : findings) EXPECT_EQ(f.severity, Severity::Info) << f.finding;
  EXPECT_TRUE(mentions(findings[0], "of which 0-55 are on NUMA node 0")) << findings[0].finding;
}

TEST(HealthRules, UnknownNumaNodeIsInfo) {
  NodeFacts node = healthy_node(2);
  for (GpuFacts& gpu : node.gpus) {
    gpu.numa_node = -1;
    gpu.local_cpus = {std::nullopt, "no local_cpulist"};
  }
  const Finding f = problem(judge_node_health(node), "numa.process_placement");
  EXPECT_EQ(f.severity, Severity::Info);
  EXPECT_EQ(f.gpus, (std::vector<int>{0, 1}));
}

TEST(HealthRules, GovernorOtherThanPerformanceWarns) {
  NodeFacts node = healthy_node(1);
  node.host.governors.value = std::map<std::string, std::vector<int>>{{"performance", cpu_range(0, 7)}, {"powersave", cpu_range(8, 15)}};
  const Finding f = problem(judge_node_health(node), "cpu.governor");
  EXPECT_EQ(f.severity, Severity::Warning);
  EXPECT_TRUE(f.gpus.empty());
  EXPECT_TRUE(mentions(f, "CPUs 8-15 use the 'powersave'")) << f.finding;
  EXPECT_NE(f.fix.find("cpupower frequency-set -g performance"), std::string::npos);
  node.host.governors = {std::nullopt, "no cpu*/cpufreq/scaling_governor"};
  const Finding unreadable = problem(judge_node_health(node), "cpu.governor");
  EXPECT_EQ(unreadable.severity, Severity::Info);
  EXPECT_TRUE(mentions(unreadable, "not readable"));
}

TEST(HealthRules, VariablesThatChangeResults) {
  NodeFacts node = healthy_node(1);
  node.host.variables = {{"CUDA_LAUNCH_BLOCKING", "1"},   {"NVIDIA_TF32_OVERRIDE", "0"}, {"NCCL_ALGO", "Ring"},
                         {"NCCL_PROTO", "Simple"},        {"NCCL_P2P_DISABLE", "1"},     {"NCCL_SHM_DISABLE", "1"},
                         {"NCCL_IB_DISABLE", "1"},        {"CUDA_DEVICE_MAX_CONNECTIONS", "1"},
                         {"CUBLAS_WORKSPACE_CONFIG", ":4096:8"}, {"NCCL_NVLS_ENABLE", "0"}, {"CUDA_VISIBLE_DEVICES", "0,1"},
                         {"NCCL_SOCKET_IFNAME", "eth0"}};
  const std::vector<Finding> findings = judge_node_health(node);
  const std::map<std::string, Severity> expected = {
      {"env.cuda_launch_blocking", Severity::Warning}, {"env.nvidia_tf32_override", Severity::Warning},
      {"env.nccl_algo", Severity::Warning},            {"env.nccl_proto", Severity::Warning},
      {"env.nccl_p2p_disable", Severity::Warning},     {"env.nccl_shm_disable", Severity::Warning},
      {"env.nccl_ib_disable", Severity::Warning},      {"env.cuda_device_max_connections", Severity::Warning},
      {"env.cublas_workspace_config", Severity::Info}, {"env.nccl_nvls_enable", Severity::Info},
      {"env.cuda_visible_devices", Severity::Info}};
  for (const auto& [check, severity] : expected) {
    const Finding f = problem(findings, check);
    EXPECT_EQ(f.severity, severity) << check;
    EXPECT_FALSE(f.fix.empty()) << check;
  }
  EXPECT_TRUE(with_check(findings, "env.nccl_socket_ifname").empty()) << "only variables known to change results";
  EXPECT_TRUE(with_check(findings, "env.variables").empty());
  EXPECT_TRUE(mentions(problem(findings, "env.nccl_algo"), "NCCL_ALGO=Ring")) << "the value is quoted";
}

TEST(HealthRules, VariablesSetToTheirInertValueAreQuiet) {
  NodeFacts node = healthy_node(1);
  node.host.variables = {{"CUDA_LAUNCH_BLOCKING", "0"}, {"NCCL_P2P_DISABLE", "0"}, {"NCCL_IB_DISABLE", "0"}};
  const std::vector<Finding> findings = judge_node_health(node);
  ASSERT_EQ(with_check(findings, "env.variables").size(), 1u);
  EXPECT_EQ(with_check(findings, "env.variables")[0].severity, Severity::Ok);
  node.host.variables = {{"CUDA_DEVICE_MAX_CONNECTIONS", "32"}, {"NVIDIA_TF32_OVERRIDE", "1"}};
  const std::vector<Finding> softer = judge_node_health(node);
  EXPECT_EQ(problem(softer, "env.cuda_device_max_connections").severity, Severity::Info);
  EXPECT_EQ(problem(softer, "env.nvidia_tf32_override").severity, Severity::Info);
}

TEST(HealthRules, FindingsComeWorstFirst) {
  NodeFacts node = healthy_node(2);
  node.gpus[1].persistence_mode.value = false;
  node.gpus[0].remapped_rows.value = RemappedRows{0, 1, true, false};
  node.host.variables = {{"CUDA_VISIBLE_DEVICES", "0,1"}};
  const std::vector<Finding> findings = judge_node_health(node);
  EXPECT_EQ(findings[0].check, "memory.row_remap");
  EXPECT_EQ(findings[1].check, "persistence.disabled");
  EXPECT_EQ(findings[2].check, "env.cuda_visible_devices");
  for (std::size_t i = 1; i < findings.size(); ++i) EXPECT_GE(findings[i - 1].severity, findings[i].severity);
}

TEST(HealthRules, JsonAndConsoleCarryEveryField) {
  NodeFacts node = healthy_node(2);
  node.gpus[1].persistence_mode.value = false;
  node.gpus[1].uuid = "GPU-5ede5d59-c949-3aca-4b28-11bd00045ab5";
  node.gpus[1].serial = "1653924042280";
  const std::vector<Finding> findings = judge_node_health(node);
  const nlohmann::json json = findings_json(findings, gpu_identities(node));
  ASSERT_TRUE(json.is_array());
  EXPECT_EQ(json[0]["severity"], "warning");
  EXPECT_EQ(json[0]["check"], "persistence.disabled");
  EXPECT_EQ(json[0]["gpus"], nlohmann::json::array({1}));
  EXPECT_EQ(json[0]["gpu_identities"][0]["index"], 1);
  EXPECT_EQ(json[0]["gpu_identities"][0]["pci_bus_id"], "0000:11:00.0");
  EXPECT_EQ(json[0]["gpu_identities"][0]["uuid"], "GPU-5ede5d59-c949-3aca-4b28-11bd00045ab5");
  EXPECT_EQ(json[0]["gpu_identities"][0]["serial"], "1653924042280");
  EXPECT_FALSE(json[0]["fix"].get<std::string>().empty());
  std::ostringstream console;
  print_findings(findings, gpu_identities(node), console);
  EXPECT_NE(console.str().find("0 critical, 1 warning"), std::string::npos) << console.str();
  EXPECT_NE(console.str().find("WARNING   GPU 1"), std::string::npos) << console.str();
  EXPECT_NE(console.str().find("GPU 1: PCI 0000:11:00.0, UUID GPU-5ede5d59-c949-3aca-4b28-11bd00045ab5, serial 1653924042280"),
            std::string::npos) << console.str();
  EXPECT_NE(console.str().find("fix: run the persistence daemon"), std::string::npos) << console.str();
}

TEST(DoctorCpuGovernors, ReadsSysfsAndSaysWhenThereIsNone) {
  const std::filesystem::path root = std::filesystem::temp_directory_path() / ("gpubench-governors-" + std::to_string(getpid()));
  for (int cpu = 0; cpu < 4; ++cpu) {
    std::filesystem::create_directories(root / ("cpu" + std::to_string(cpu)) / "cpufreq");
    std::ofstream(root / ("cpu" + std::to_string(cpu)) / "cpufreq" / "scaling_governor") << (cpu < 3 ? "performance\n" : "powersave\n");
  }
  std::filesystem::create_directories(root / "cpufreq");  // not a CPU
  const auto governors = read_cpu_governors(root.string());
  ASSERT_TRUE(governors.value) << governors.why_not;
  EXPECT_EQ(governors.value->at("performance"), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(governors.value->at("powersave"), std::vector<int>{3});
  std::filesystem::remove_all(root);
  const auto none = read_cpu_governors(root.string());
  EXPECT_FALSE(none.value);
  EXPECT_FALSE(none.why_not.empty());
}

TEST(HealthRules, NvLinkErrorsThatRoseUnderLoadAreJudgedOnTheirGrowthAlone) {
  NodeFacts before = healthy_node(5);
  // Counts since boot that doctor already reported; only what rises during the load is judged here.
  (*before.gpus[4].nvlinks.value)[2].errors.value = NvLinkCounters{5, 1, 900, 100};
  const std::vector<Finding> quiet = judge_nvlink_error_growth(before, before, 60);
  ASSERT_EQ(quiet.size(), 1u);
  EXPECT_EQ(quiet[0].severity, Severity::Ok);
  EXPECT_EQ(quiet[0].check, "nvlink.errors_during_run");

  NodeFacts after = before;
  (*after.gpus[0].nvlinks.value)[5].errors.value = NvLinkCounters{0, 1, 0, 0};        // retrained under load
  (*after.gpus[1].nvlinks.value)[7].errors.value = NvLinkCounters{12, 0, 0, 0};       // replays
  (*after.gpus[2].nvlinks.value)[3].errors.value = NvLinkCounters{0, 0, 5000, 1000};  // 100/s over 60 s
  (*after.gpus[3].nvlinks.value)[9].active = false;                                   // went down
  (*after.gpus[4].nvlinks.value)[2].errors.value = NvLinkCounters{5, 1, 930, 100};    // 30 CRC in 60 s
  const std::vector<Finding> rose = judge_nvlink_error_growth(before, after, 60);
  ASSERT_EQ(rose.size(), 5u);
  const auto of_gpu = [&rose](int gpu) {
    for (const Finding& f : rose) {
      if (f.gpus == std::vector<int>{gpu}) return f;
    }
    return Finding{};
  };
  EXPECT_EQ(of_gpu(0).severity, Severity::Critical);
  EXPECT_TRUE(mentions(of_gpu(0), "recovery errors during the run (60 s of load) (link 5: 1)")) << of_gpu(0).finding;
  EXPECT_EQ(of_gpu(1).severity, Severity::Warning);
  EXPECT_TRUE(mentions(of_gpu(1), "replay errors during the run (60 s of load) (link 7: 12)")) << of_gpu(1).finding;
  EXPECT_EQ(of_gpu(2).severity, Severity::Warning);
  EXPECT_TRUE(mentions(of_gpu(2), "link 3: 6000")) << of_gpu(2).finding;
  EXPECT_EQ(of_gpu(3).severity, Severity::Critical);
  EXPECT_TRUE(mentions(of_gpu(3), "went down during the run (60 s of load) (link 9: active before, not after)")) << of_gpu(3).finding;
  EXPECT_EQ(of_gpu(4).severity, Severity::Info);
  EXPECT_TRUE(mentions(of_gpu(4), "link 2: 30")) << of_gpu(4).finding;

  // A counter that went down (the driver reloaded) rose by nothing; a GPU without NVLink is left out.
  NodeFacts reset = before;
  (*reset.gpus[4].nvlinks.value)[2].errors.value = NvLinkCounters{0, 0, 0, 0};
  for (GpuFacts& gpu : reset.gpus) {
    if (gpu.index != 4) gpu.nvlinks.value = std::vector<NvLinkFacts>{};
  }
  NodeFacts no_links_before = before;
  for (GpuFacts& gpu : no_links_before.gpus) {
    if (gpu.index != 4) gpu.nvlinks.value = std::vector<NvLinkFacts>{};
  }
  const std::vector<Finding> after_reset = judge_nvlink_error_growth(no_links_before, reset, 60);
  ASSERT_EQ(after_reset.size(), 1u);
  EXPECT_EQ(after_reset[0].severity, Severity::Ok);
  EXPECT_EQ(after_reset[0].gpus, std::vector<int>{4});
}

}  // namespace
}  // namespace gpubench
