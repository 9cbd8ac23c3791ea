// The node against the profile it should match (--expect): every field of the profile that differs is critical,
// naming what was expected and what was found, as a node that came up with 7 of its 8 GPUs or an NVLink at
// reduced speed should not go into service. A field the profile leaves out is not checked.
#include <cmath>
#include <cstdio>

#include "harness/doctor/rule_support.hpp"

namespace gpubench {
namespace {

// Tools disagree on a GPU's total memory by what the driver reserves (CUDA's total is a few hundred MiB below
// nvidia-smi's); a missing memory stack or another board differs by 10 % or more.
constexpr double kMemoryTolerance = 0.02;
// NVLink speeds are reported in MB/s and printed rounded; a link trained at a lower rate is far off.
constexpr double kNvLinkSpeedTolerance = 0.01;

std::string expected_found(const NodeProfile& profile, const std::string& expected, const std::string& found) {
  return "expected " + expected + " (" + profile.path + "), found " + found;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.5g", value);
  return text;
}

bool within(double found, double expected, double tolerance) { return std::fabs(found - expected) <= tolerance * expected; }

void judge_gpu_count(const NodeFacts& facts, const NodeProfile& profile, std::vector<Finding>& out) {
  const unsigned found = facts.cuda_why_not.empty() ? static_cast<unsigned>(facts.cuda_device_count) : 0;
  const std::string expected = std::to_string(*profile.gpu_count) + " GPUs";
  if (found == *profile.gpu_count) {
    out.push_back({Severity::Ok, "inventory.gpu_count", {}, std::to_string(found) + " GPUs, as " + profile.path + " expects", ""});
    return;
  }
  std::string seen = std::to_string(found) + " (CUDA's count";
  if (facts.nvml_device_count.value && *facts.nvml_device_count.value != found) {
    seen += "; the driver knows " + std::to_string(*facts.nvml_device_count.value) + ", so a GPU is hidden from CUDA or unusable";
  }
  seen += ")";
  out.push_back({Severity::Critical, "inventory.gpu_count", {}, expected_found(profile, expected, seen),
                 "compare `nvidia-smi -L` and `lspci -d 10de:` with the expected GPUs; look for Xid 79 or 'fallen off the bus' in "
                 "the kernel log, check CUDA_VISIBLE_DEVICES, then reseat the missing GPU or power-cycle the node"});
}

void judge_driver(const NodeFacts& facts, const NodeProfile& profile, std::vector<Finding>& out) {
  const char* check = "inventory.driver_version";
  if (!facts.driver_version.value) {
    out.push_back({Severity::Info, check, {}, "cannot check the driver version: " + facts.driver_version.why_not, ""});
  } else if (*facts.driver_version.value != *profile.driver_version) {
    out.push_back({Severity::Critical, check, {}, expected_found(profile, "driver " + *profile.driver_version, *facts.driver_version.value),
                   "install the expected driver (and the nvidia-fabricmanager of the same version on NVSwitch systems), or "
                   "update the profile if the fleet moved on"});
  } else {
    out.push_back({Severity::Ok, check, {}, "driver " + *facts.driver_version.value, ""});
  }
}

// The link as it trains under load: idle GPUs lower their generation, so an idle reading alone cannot tell.
std::optional<PcieLink> trained_link(const GpuFacts& gpu) {
  if (gpu.pcie_under_load.value) return gpu.pcie_under_load.value;
  if (!gpu.pcie.value) return std::nullopt;
  const PcieLink& rest = *gpu.pcie.value;
  const bool at_max = rest.current_generation >= rest.max_generation && rest.current_width >= rest.max_width;
  return at_max ? gpu.pcie.value : std::nullopt;  // below its maximum and never read under load: unknown
}

void judge_pcie(const GpuFacts& gpu, GpuCheck& check, const NodeProfile& profile) {
  const std::optional<PcieLink> link = trained_link(gpu);
  if (!link) {
    const std::string why = !gpu.pcie.value ? gpu.pcie.why_not : "no reading under load (" + gpu.pcie_under_load.why_not + ")";
    return check.cannot_check("the PCIe link against the profile", why);
  }
  std::string expected;
  std::string found;
  if (profile.pcie_generation && link->current_generation != *profile.pcie_generation) {
    expected = "gen " + std::to_string(*profile.pcie_generation);
    found = "gen " + std::to_string(link->current_generation);
  }
  if (profile.pcie_width && link->current_width != *profile.pcie_width) {
    expected += (expected.empty() ? "" : " ") + std::string("x") + std::to_string(*profile.pcie_width);
    found += (found.empty() ? "" : " ") + std::string("x") + std::to_string(link->current_width);
  }
  if (expected.empty()) return;
  check.flag(Severity::Critical, "PCIe link " + expected_found(profile, expected, found + " under load"),
             "reseat the GPU and its riser or cables, and check the slot's link speed and bifurcation in the BIOS; `lspci -vv -s " +
                 gpu.pci_bus_id + "` shows LnkCap against LnkSta");
}

void judge_nvlinks(const GpuFacts& gpu, GpuCheck& check, const NodeProfile& profile) {
  if (!gpu.nvlinks.value) return check.cannot_check("the NVLinks against the profile", gpu.nvlinks.why_not);
  const std::string fix = "`nvidia-smi nvlink -s -i " + gpu.pci_bus_id +
                          "` lists each link and its speed; on NVSwitch systems check nvidia-fabricmanager; reset the GPU or "
                          "reboot, and return the GPU or baseboard if a link stays down or slow";
  unsigned active = 0;
  std::string slow;
  std::string unreadable;
  for (const NvLinkFacts& link : *gpu.nvlinks.value) {
    if (!link.active) continue;
    ++active;
    if (!profile.nvlink_speed_gb_per_s) continue;
    if (!link.speed_mb_per_s.value) {
      unreadable = link.speed_mb_per_s.why_not;
      continue;
    }
    const double gb_per_s = *link.speed_mb_per_s.value / 1000.0;
    if (!within(gb_per_s, *profile.nvlink_speed_gb_per_s, kNvLinkSpeedTolerance)) {
      slow += (slow.empty() ? "" : ", ") + std::string("link ") + std::to_string(link.link) + " at " + number(gb_per_s) + " GB/s";
    }
  }
  if (profile.nvlinks_per_gpu && active != *profile.nvlinks_per_gpu) {
    check.flag(Severity::Critical,
               "active NVLinks " + expected_found(profile, std::to_string(*profile.nvlinks_per_gpu), std::to_string(active)), fix);
  }
  if (!slow.empty()) {
    check.flag(Severity::Critical, "NVLink speed " + expected_found(profile, number(*profile.nvlink_speed_gb_per_s) + " GB/s per link", slow), fix);
  } else if (!unreadable.empty()) {
    check.cannot_check("the NVLink speed", unreadable);
  }
}

void judge_gpus(const NodeFacts& facts, const NodeProfile& profile, std::vector<Finding>& out) {
  const std::string as_expected = "as " + profile.path + " expects";
  if (profile.gpu_model) {
    check_each_gpu(facts, "inventory.gpu_model", *profile.gpu_model + ", " + as_expected, [&](const GpuFacts& gpu, GpuCheck& check) {
      if (gpu.name != *profile.gpu_model) {
        check.flag(Severity::Critical, "model " + expected_found(profile, *profile.gpu_model, gpu.name.empty() ? "none named" : gpu.name),
                   "a GPU of another model sits in this node: replace it, or check the profile is the one for this kind of node");
      }
    }, out, RuleReads::Other);
  }
  if (profile.memory_mib) {
    check_each_gpu(facts, "inventory.memory", std::to_string(*profile.memory_mib) + " MiB, " + as_expected, [&](const GpuFacts& gpu, GpuCheck& check) {
      if (gpu.memory_bytes == 0) return check.cannot_check("the memory size", "CUDA reported none");
      const double mib = static_cast<double>(gpu.memory_bytes) / (1024.0 * 1024.0);
      if (!within(mib, *profile.memory_mib, kMemoryTolerance)) {
        check.flag(Severity::Critical,
                   "memory " + expected_found(profile, std::to_string(*profile.memory_mib) + " MiB", std::to_string(std::llround(mib)) + " MiB"),
                   "a board of another memory size, or memory the GPU disabled: compare `nvidia-smi -q -d MEMORY` with "
                   "the board's datasheet, and return the GPU if memory is missing");
      }
    }, out, RuleReads::Other);
  }
  if (profile.vbios_version) {
    check_each_gpu(facts, "inventory.vbios_version", "VBIOS " + *profile.vbios_version + ", " + as_expected, [&](const GpuFacts& gpu, GpuCheck& check) {
      if (!gpu.vbios_version.value) return check.cannot_check("the VBIOS version", gpu.vbios_version.why_not);
      if (*gpu.vbios_version.value != *profile.vbios_version) {
        check.flag(Severity::Critical, "VBIOS " + expected_found(profile, *profile.vbios_version, *gpu.vbios_version.value),
                   "update the GPU's firmware with the system vendor's tool to the fleet's version, or update the profile");
      }
    }, out);
  }
  if (profile.nvlinks_per_gpu || profile.nvlink_speed_gb_per_s) {
    check_each_gpu(facts, "inventory.nvlinks", "NVLinks " + as_expected,
                   [&](const GpuFacts& gpu, GpuCheck& check) { judge_nvlinks(gpu, check, profile); }, out);
  }
  if (profile.pcie_generation || profile.pcie_width) {
    check_each_gpu(facts, "inventory.pcie_link", "PCIe link " + as_expected,
                   [&](const GpuFacts& gpu, GpuCheck& check) { judge_pcie(gpu, check, profile); }, out);
  }
  if (profile.ecc) {
    const std::string wanted = *profile.ecc ? "ECC on" : "ECC off";
    check_each_gpu(facts, "inventory.ecc", wanted + ", " + as_expected, [&](const GpuFacts& gpu, GpuCheck& check) {
      if (!gpu.ecc_mode.value) return check.cannot_check("the ECC mode", gpu.ecc_mode.why_not);
      if (gpu.ecc_mode.value->enabled != *profile.ecc) {
        check.flag(Severity::Critical, expected_found(profile, wanted, gpu.ecc_mode.value->enabled ? "ECC on" : "ECC off"),
                   "as root `nvidia-smi -i " + gpu.pci_bus_id + " -e " + (*profile.ecc ? "1" : "0") +
                       "`, then reset the GPU or reboot; doctor itself changes nothing");
      }
    }, out);
  }
}

}  // namespace

void judge_inventory(const NodeFacts& facts, const NodeProfile& profile, std::vector<Finding>& out) {
  if (profile.gpu_count) judge_gpu_count(facts, profile, out);
  if (profile.driver_version) judge_driver(facts, profile, out);
  judge_gpus(facts, profile, out);
}

}  // namespace gpubench
