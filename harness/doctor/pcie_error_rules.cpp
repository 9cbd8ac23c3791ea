// PCIe errors since boot: AER counts of the GPU and the bridge port above it, and NVML's replay counter.
// An uncorrectable (fatal or non-fatal) AER error is critical: a transaction was lost or the link went down.
// Correctable errors and replays were repaired by the link itself; they matter by their rate, so their totals are
// info unless replays come at DCGM's warning rate (HealthLimits); counts that rise under load matter, and
// judge_pcie_error_growth judges them.
#include <cstdio>

#include "harness/doctor/rule_support.hpp"

namespace gpubench {
namespace {

std::string named_counts(const std::map<std::string, std::uint64_t>& named, const std::string& prefix) {
  std::string list;
  for (const auto& [name, count] : named) {
    if (name.rfind(prefix, 0) == 0) list += (list.empty() ? "" : ", ") + name.substr(prefix.size()) + " " + std::to_string(count);
  }
  return list.empty() ? "" : " (" + list + ")";
}

std::string function_name(const PcieFunctionAer& function) {
  return function.is_gpu ? "the GPU (" + function.address + ")" : "the bridge port above it (" + function.address + ")";
}

std::string lspci_command(const std::string& address) { return "`lspci -vvv -s " + address + "`"; }

void judge_aer(const GpuFacts& gpu, GpuCheck& check) {
  if (gpu.pcie_aer.empty()) return check.skip();  // no PCI address to read them at
  for (const PcieFunctionAer& function : gpu.pcie_aer) {
    if (!function.counts.value) {
      check.cannot_check("the PCIe AER counters of " + function_name(function), function.counts.why_not);
      continue;
    }
    const AerCounts& counts = *function.counts.value;
    if (counts.fatal + counts.nonfatal > 0) {
      check.flag(Severity::Critical,
                 std::to_string(counts.fatal) + " fatal" + named_counts(counts.named, "fatal ") + " and " +
                     std::to_string(counts.nonfatal) + " non-fatal" + named_counts(counts.named, "non-fatal ") +
                     " uncorrectable PCIe errors since boot on " + function_name(function) +
                     ": transactions on the GPU's link were lost",
                 "drain the GPU; the kernel log's 'AER:' lines say when, and " + lspci_command(function.address) +
                     " shows the error status; reseat the GPU and its riser or cables, and return the GPU or the riser if "
                     "errors come back");
    } else if (counts.correctable > 0) {
      check.flag(Severity::Info,
                 std::to_string(counts.correctable) + " correctable PCIe errors since boot on " + function_name(function) +
                     named_counts(counts.named, "correctable ") + ": the link repaired them",
                 "nothing to do unless they keep growing (`gpubench acceptance` compares them before and after its load); a "
                 "steady stream points to a marginal link: reseat the GPU and its riser or cables");
    }
  }
}

void judge_replays(const GpuFacts& gpu, GpuCheck& check, const HealthLimits& limits, const Reading<double>& uptime_s) {
  if (!gpu.pcie_replays.value) return check.cannot_check("the PCIe replay counter", gpu.pcie_replays.why_not);
  const unsigned replays = *gpu.pcie_replays.value;
  if (replays == 0) return;
  const std::string found = std::to_string(replays) + " PCIe replays (packets sent again after a link error) since the driver loaded";
  const std::string fix = "watch whether they keep growing (`nvidia-smi -q -d PCIE -i " + gpu.pci_bus_id +
                          "`); reseat the GPU and its riser or cables, and check the PCIe AER findings";
  if (!uptime_s.value) return check.flag(Severity::Info, found + "; their rate is unknown (" + uptime_s.why_not + ")", fix);
  // The counter runs since the driver loaded, at most since boot: total / uptime is the lowest its rate can be.
  const double per_minute = replays / (*uptime_s.value / 60);
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.3g a minute", per_minute);
  if (per_minute >= limits.pcie_replays_per_minute) {
    check.flag(Severity::Warning,
               found + ", at least " + rate + " on average since boot (DCGM's health watch warned from " +
                   std::to_string(static_cast<int>(limits.pcie_replays_per_minute)) + " a minute): a marginal link",
               fix);
  } else {
    check.flag(Severity::Info, found + ", " + rate + " or less on average since boot: within what a link absorbs", "");
  }
}

const AerCounts* counts_at(const GpuFacts& gpu, const std::string& address) {
  for (const PcieFunctionAer& function : gpu.pcie_aer) {
    if (function.address == address && function.counts.value) return &*function.counts.value;
  }
  return nullptr;
}

void judge_growth(const GpuFacts& earlier, const GpuFacts& gpu, GpuCheck& check, const HealthLimits& limits) {
  const std::string fix = "reseat the GPU and its riser or cables; the kernel log's 'AER:' lines say when the errors came";
  for (const PcieFunctionAer& function : gpu.pcie_aer) {
    const AerCounts* before = counts_at(earlier, function.address);
    if (before == nullptr || !function.counts.value) continue;
    const AerCounts& after = *function.counts.value;
    const std::uint64_t uncorrectable = rise(before->fatal + before->nonfatal, after.fatal + after.nonfatal);
    const std::uint64_t correctable = rise(before->correctable, after.correctable);
    if (uncorrectable > 0) {
      check.flag(Severity::Critical, std::to_string(uncorrectable) + " uncorrectable PCIe errors on " + function_name(function) + " during the run",
                 "drain the GPU; " + fix + ", and return the GPU or the riser if they come back");
    }
    if (correctable > 0) {
      check.flag(Severity::Warning,
                 std::to_string(correctable) + " correctable PCIe errors on " + function_name(function) +
                     " during the run: the link needed repairs under load",
                 fix + "; run acceptance again to see whether they keep coming");
    }
  }
  if (!earlier.pcie_replays.value || !gpu.pcie_replays.value) return;
  const std::uint64_t replays = rise(*earlier.pcie_replays.value, *gpu.pcie_replays.value);
  if (replays > limits.pcie_replays_per_run) {
    check.flag(Severity::Critical,
               std::to_string(replays) + " PCIe replays during the run, more than the " + std::to_string(limits.pcie_replays_per_run) +
                   " DCGM's diagnostic allows its pcie test: a marginal link",
               fix);
  } else if (replays > 0) {
    check.flag(Severity::Info, std::to_string(replays) + " PCIe replays during the run, within the " + std::to_string(limits.pcie_replays_per_run) +
                                   " DCGM's diagnostic allows its pcie test", "");
  }
}

}  // namespace

std::vector<Finding> judge_pcie_error_growth(const NodeFacts& before, const NodeFacts& after, const HealthLimits& limits) {
  std::vector<Finding> findings;
  check_each_gpu(after, "pcie.errors_during_run", "no PCIe error counter rose during the run", [&](const GpuFacts& gpu, GpuCheck& check) {
    const GpuFacts* earlier = same_gpu(before, gpu.index);
    if (earlier == nullptr) return check.skip();
    judge_growth(*earlier, gpu, check, limits);
  }, findings, RuleReads::Other);
  return findings;
}

void judge_pcie_errors(const NodeFacts& facts, const HealthLimits& limits, std::vector<Finding>& out) {
  check_each_gpu(facts, "pcie.aer_errors", "no PCIe AER errors since boot on the GPU or the port above it", judge_aer, out,
                 RuleReads::Other);
  check_each_gpu(facts, "pcie.replays", "no PCIe replays since the driver loaded",
                 [&](const GpuFacts& gpu, GpuCheck& check) { judge_replays(gpu, check, limits, facts.host.uptime_s); }, out);
}

}  // namespace gpubench
