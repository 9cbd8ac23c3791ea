// The Xids the driver logged since boot: one finding per GPU and Xid, at the catalogue's severity when one came
// within the window (24 h by default), a step lower when all are older. Xids of a PCI device that is none of the
// GPUs checked (a GPU not selected, or one that fell off the bus and is gone) belong to the node.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

#include "harness/doctor/kernel_log.hpp"
#include "harness/doctor/rule_support.hpp"
#include "harness/doctor/xid_catalogue.hpp"

namespace gpubench {
namespace {

using PciDevice = std::tuple<unsigned long, unsigned long, unsigned long>;  // domain, bus, device

// "0000:18:00" (as Xids name it) or "0000:18:00.0" (as CUDA does).
std::optional<PciDevice> pci_device_of(const std::string& text) {
  unsigned long domain = 0, bus = 0, device = 0;
  if (std::sscanf(text.c_str(), "%lx:%lx:%lx", &domain, &bus, &device) != 3) return std::nullopt;
  return PciDevice{domain, bus, device};
}

std::optional<int> gpu_at(const NodeFacts& facts, const std::string& xid_device) {
  const std::optional<PciDevice> wanted = pci_device_of(xid_device);
  for (const GpuFacts& gpu : facts.gpus) {
    if (wanted && pci_device_of(gpu.pci_bus_id) == wanted) return gpu.index;
  }
  return std::nullopt;
}

struct XidGroup {
  std::optional<int> gpu;
  std::string pci_device;
  int code = 0;
  int since_boot = 0;
  int recent = 0;  // within the window
  const XidEvent* last = nullptr;
};

// "40 s", "12 min", "3.5 h", "24 h", "2.1 d"
std::string span(double seconds) {
  const auto in_unit = [](double value, const char* unit) {
    char text[32];
    std::snprintf(text, sizeof text, value == std::floor(value) || value >= 100 ? "%.0f %s" : "%.1f %s", value, unit);
    return std::string(text);
  };
  if (seconds < 120) return in_unit(std::round(seconds), "s");
  if (seconds < 7200) return in_unit(std::round(seconds / 60), "min");
  if (seconds < 2 * 86400) return in_unit(seconds / 3600, "h");
  return in_unit(seconds / 86400, "d");
}

// Xid 154 names the action the GPU needs now: "... changed from 0x0 (None) to 0x1 (GPU Reset Required)".
bool recovery_action_is_none(const std::string& message) {
  const std::size_t to = message.rfind(" to ");
  return to != std::string::npos && message.find("(None)", to) != std::string::npos;
}

Severity severity_of(const XidGroup& group, const XidKind* kind) {
  Severity full = kind != nullptr ? kind->severity : Severity::Warning;
  if (group.code == 154 && recovery_action_is_none(group.last->message)) full = Severity::Info;
  if (group.recent > 0) return full;
  return full == Severity::Critical ? Severity::Warning : Severity::Info;
}

std::string quoted(const std::string& message) {
  const std::size_t longest = 200;
  return "\"" + (message.size() > longest ? message.substr(0, longest) + "..." : message) + "\"";
}

Finding finding_for(const XidGroup& group, const XidHistory& history, const HealthLimits& limits, const Reading<double>& uptime_s) {
  const XidKind* kind = find_xid_kind(group.code);
  std::string text = group.gpu ? "" : "on PCI " + group.pci_device + ", none of the GPUs checked (one not selected, or one the driver lost): ";
  text += "Xid " + std::to_string(group.code) + " (" + (kind != nullptr ? kind->name : "not in doctor's catalogue") + "): " +
          std::to_string(group.since_boot) + " since boot";
  if (uptime_s.value) {
    const std::string window = span(limits.xid_window_s);
    text += group.recent > 0 ? ", " + std::to_string(group.recent) + " in the last " + window : ", none in the last " + window;
    text += "; the last " + span(*uptime_s.value - group.last->seconds_since_boot) + " ago";
  } else {
    text += " (the uptime is unknown, so each counts as recent); the last " + span(group.last->seconds_since_boot) + " after boot";
  }
  if (!group.last->message.empty()) text += ": " + quoted(group.last->message);
  if (history.covers_from_s >= kLogFromBoot_s) {
    text += " (" + history.source + " begins " + span(history.covers_from_s) + " after boot: older Xids may be missing)";
  }
  return {severity_of(group, kind), "xid.errors", group.gpu ? std::vector<int>{*group.gpu} : std::vector<int>{}, text,
          kind != nullptr ? kind->fix : kUnknownXidFix};
}

}  // namespace

void judge_xids(const NodeFacts& facts, const HealthLimits& limits, std::vector<Finding>& out) {
  const char* check = "xid.errors";
  if (!facts.xids.value) {
    out.push_back({Severity::Info, check, {}, "cannot check the Xid history: no kernel log could be read (" + facts.xids.why_not + ")",
                   "run doctor as root, or let its user read the journal (the systemd-journal or adm group) or the ring buffer "
                   "(sysctl kernel.dmesg_restrict=0)"});
    return;
  }
  const XidHistory& history = *facts.xids.value;
  const Reading<double>& uptime_s = facts.host.uptime_s;
  std::map<std::tuple<int, std::string, int>, XidGroup> groups;  // by GPU (-1: none), PCI device and code
  for (const XidEvent& event : history.events) {
    const std::optional<int> gpu = gpu_at(facts, event.pci_device);
    XidGroup& group = groups[{gpu.value_or(-1), gpu ? "" : event.pci_device, event.code}];
    group.gpu = gpu;
    group.pci_device = event.pci_device;
    group.code = event.code;
    ++group.since_boot;
    if (!uptime_s.value || event.seconds_since_boot >= *uptime_s.value - limits.xid_window_s) ++group.recent;
    if (group.last == nullptr || event.seconds_since_boot >= group.last->seconds_since_boot) group.last = &event;
  }
  std::vector<int> quiet;
  for (const GpuFacts& gpu : facts.gpus) quiet.push_back(gpu.index);
  for (const auto& [key, group] : groups) {
    out.push_back(finding_for(group, history, limits, uptime_s));
    if (group.gpu) quiet.erase(std::remove(quiet.begin(), quiet.end(), *group.gpu), quiet.end());
  }
  if (!quiet.empty() || (facts.gpus.empty() && groups.empty())) {
    out.push_back({Severity::Ok, check, quiet, "no Xid since boot (read from " + history.source + ")", ""});
  }
}

}  // namespace gpubench
