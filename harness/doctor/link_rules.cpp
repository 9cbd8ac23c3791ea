// Links between GPUs: NVLinks down or erroring, NVLink counts that differ between GPUs or pairs of one node,
// and pairs without peer-to-peer access where their link should give it.
#include <algorithm>
#include <map>
#include <sstream>

#include "harness/doctor/rule_support.hpp"

namespace gpubench {
namespace {

int active_links(const std::vector<NvLinkFacts>& links) {
  return static_cast<int>(std::count_if(links.begin(), links.end(), [](const NvLinkFacts& l) { return l.active; }));
}

// The active-link counts of the other GPUs of the same model, where readable.
std::vector<int> sibling_active_links(const NodeFacts& facts, const GpuFacts& gpu) {
  std::vector<int> counts;
  for (const GpuFacts& other : facts.gpus) {
    if (other.index != gpu.index && other.name == gpu.name && other.nvlinks.value) counts.push_back(active_links(*other.nvlinks.value));
  }
  return counts;
}

std::string link_list(const std::vector<unsigned>& links) {
  std::string out;
  for (unsigned link : links) out += (out.empty() ? "" : ", ") + std::to_string(link);
  return out;
}

void judge_links_down(const NodeFacts& facts, const GpuFacts& gpu, GpuCheck& check) {
  if (!gpu.nvlinks.value) return check.cannot_check("the NVLinks", gpu.nvlinks.why_not);
  const std::vector<NvLinkFacts>& links = *gpu.nvlinks.value;
  const int active = active_links(links);
  if (active == 0) return check.skip();  // no NVLink in use: topology.asymmetric_nvlinks compares it with its siblings
  std::vector<unsigned> down;
  for (const NvLinkFacts& link : links) {
    if (!link.active) down.push_back(link.link);
  }
  if (down.empty()) return;
  const std::string found = std::to_string(down.size()) + " of " + std::to_string(links.size()) + " NVLinks inactive (links " + link_list(down) + ")";
  const std::vector<int> siblings = sibling_active_links(facts, gpu);
  const bool alike = !siblings.empty() && std::all_of(siblings.begin(), siblings.end(), [active](int n) { return n == active; });
  if (alike) {
    check.flag(Severity::Info, found + ", as on every other " + gpu.name + " here: likely how this system is built (bridged cards wire fewer links than the GPU has)",
               "nothing to do if the system is built this way; `nvidia-smi nvlink -s -i " + gpu.pci_bus_id + "` lists the links");
    return;
  }
  const int most = siblings.empty() ? active : *std::max_element(siblings.begin(), siblings.end());
  check.flag(Severity::Warning,
             found + (most > active ? ", while other " + gpu.name + "s here have " + std::to_string(most) + " active" : "") +
                 ": traffic to other GPUs runs on fewer links",
             "`nvidia-smi nvlink -s -i " + gpu.pci_bus_id + "` lists the links; on NVSwitch systems check that nvidia-fabricmanager "
             "runs and read its log; reset the GPU or reboot, and return the GPU or baseboard if a link stays down");
}

std::string per_second(double rate) {
  std::ostringstream out;
  out.precision(rate < 10 ? 2 : 3);
  out << rate;
  return out.str();
}

// Recovery errors (a link retrained while in use) are critical; replays (data sent again) warn; CRC errors
// warn only at a rate that matters. The counters run since the driver loaded, which is at most the uptime, so
// total / uptime is the lowest their average rate can be.
void judge_link_errors(const GpuFacts& gpu, GpuCheck& check, const HealthLimits& limits, const Reading<double>& uptime_s) {
  if (!gpu.nvlinks.value || active_links(*gpu.nvlinks.value) == 0) return check.skip();
  std::string recovered;
  std::string replayed;
  std::string crc_fast;
  std::string crc_seen;
  std::string why_unreadable;
  int readable = 0;
  for (const NvLinkFacts& link : *gpu.nvlinks.value) {
    if (!link.active) continue;
    if (!link.errors.value) {
      why_unreadable = link.errors.why_not;
      continue;
    }
    ++readable;
    const NvLinkCounters& c = *link.errors.value;
    const std::string name = "link " + std::to_string(link.link);
    const auto add = [&name](std::string& list, const std::string& what) { list += (list.empty() ? "" : ", ") + name + ": " + what; };
    if (c.recovery.value_or(0) > 0) add(recovered, std::to_string(*c.recovery));
    if (c.replay.value_or(0) > 0) add(replayed, std::to_string(*c.replay));
    const std::uint64_t crc = c.crc_flit.value_or(0) + c.crc_data.value_or(0);
    if (crc == 0) continue;
    if (uptime_s.value && static_cast<double>(crc) / *uptime_s.value >= limits.nvlink_crc_errors_per_second) {
      add(crc_fast, std::to_string(crc) + " (at least " + per_second(static_cast<double>(crc) / *uptime_s.value) + "/s)");
    } else {
      add(crc_seen, std::to_string(crc));
    }
  }
  if (readable == 0) return check.cannot_check("the NVLink error counters", why_unreadable);
  const std::string counters = "`nvidia-smi nvlink -e -i " + gpu.pci_bus_id + "` shows the counters since the driver loaded";
  const std::string diagnose = "if they keep growing, drain the GPU and run NVIDIA's field diagnostic";
  if (!recovered.empty()) {
    check.flag(Severity::Critical, "NVLink recovery errors (" + recovered + "): links had to retrain while in use",
               "drain the GPU and run NVIDIA's field diagnostic; " + counters + "; errors that recur on a link point to the GPU or baseboard (RMA)");
  }
  if (!replayed.empty()) {
    check.flag(Severity::Warning, "NVLink replay errors (" + replayed + "): data was sent again, which costs bandwidth",
               counters + "; " + diagnose);
  }
  if (!crc_fast.empty()) {
    check.flag(Severity::Warning,
               "NVLink CRC errors at " + per_second(limits.nvlink_crc_errors_per_second) + "/s or more since boot (" + crc_fast +
                   "): a marginal link",
               counters + "; " + diagnose);
  }
  if (!crc_seen.empty() && recovered.empty() && replayed.empty() && crc_fast.empty()) {
    const std::string rate = uptime_s.value ? "on average under " + per_second(limits.nvlink_crc_errors_per_second) + "/s since boot"
                                            : "their rate unknown (" + uptime_s.why_not + ")";
    check.flag(Severity::Info, "NVLink CRC errors since the driver loaded (" + crc_seen + "), " + rate +
                                   ", with no replay or recovery: within what links absorb",
               "");
  }
}

// A GPU with no active NVLink while others of its model have some, and direct-linked pairs whose NVLink count
// differs from that of most pairs of the node (a fully meshed node should be uniform).
void judge_asymmetry(const NodeFacts& facts, std::vector<Finding>& out) {
  const char* check = "topology.asymmetric_nvlinks";
  bool any_nvlink = false;
  std::vector<int> considered;
  const std::size_t first = out.size();
  for (const GpuFacts& gpu : facts.gpus) {
    if (!gpu.nvml_why_not.empty() || !gpu.nvlinks.value) continue;
    considered.push_back(gpu.index);
    const int active = active_links(*gpu.nvlinks.value);
    any_nvlink = any_nvlink || active > 0;
    const std::vector<int> siblings = sibling_active_links(facts, gpu);
    const int most = siblings.empty() ? 0 : *std::max_element(siblings.begin(), siblings.end());
    if (active == 0 && most > 0) {
      out.push_back({Severity::Warning, check, {gpu.index},
                     "no active NVLink, while other " + gpu.name + "s here have up to " + std::to_string(most) +
                         ": its traffic to other GPUs goes over PCIe",
                     "`nvidia-smi nvlink -s -i " + gpu.pci_bus_id + "` lists the links; check the NVLink bridges, or on NVSwitch "
                     "systems that nvidia-fabricmanager runs; reset the GPU or reboot, and return it if the links stay down"});
    }
  }
  std::map<int, int> pairs_by_count;
  int direct_pairs = 0;
  for (const GpuPairFacts& pair : facts.pairs) {
    if (pair.via_nvswitch || pair.link_kind == "unknown") continue;  // NVSwitch pairs: the per-GPU counts above cover them
    ++pairs_by_count[pair.nvlinks];
    ++direct_pairs;
  }
  const auto usual = std::max_element(pairs_by_count.begin(), pairs_by_count.end(),
                                      [](const auto& x, const auto& y) { return x.second < y.second; });
  if (usual != pairs_by_count.end() && usual->first > 0 && 2 * usual->second > direct_pairs) {
    for (const GpuPairFacts& pair : facts.pairs) {
      if (pair.via_nvswitch || pair.link_kind == "unknown" || pair.nvlinks == usual->first) continue;
      out.push_back({Severity::Warning, check, {pair.a, pair.b},
                     "GPU " + std::to_string(pair.a) + " and GPU " + std::to_string(pair.b) + " are joined by " + pair.link_kind +
                         ", while " + std::to_string(usual->second) + " of the node's " + std::to_string(direct_pairs) +
                         " pairs have NV" + std::to_string(usual->first) + ": traffic between them is slower",
                     "`nvidia-smi topo -m` and `nvidia-smi nvlink -s` show which links are missing; check the NVLink bridges or "
                     "reset the GPUs, and return the baseboard if links stay down"});
    }
  }
  if (any_nvlink && out.size() == first) out.push_back({Severity::Ok, check, considered, "NVLink counts alike across GPUs and pairs", ""});
}

bool link_allows_p2p(const std::string& kind) { return kind.rfind("NV", 0) == 0 || kind == "PIX" || kind == "PXB"; }

void judge_peer_access(const NodeFacts& facts, std::vector<Finding>& out) {
  const char* check = "p2p.unavailable";
  std::vector<int> quiet;
  std::vector<int> troubled;
  for (const GpuPairFacts& pair : facts.pairs) {
    if (!link_allows_p2p(pair.link_kind)) continue;
    const std::string gpus = "GPU " + std::to_string(pair.a) + " and GPU " + std::to_string(pair.b);
    if (pair.peer_access.value && *pair.peer_access.value) {
      quiet.insert(quiet.end(), {pair.a, pair.b});
      continue;
    }
    troubled.insert(troubled.end(), {pair.a, pair.b});
    if (!pair.peer_access.value) {
      out.push_back({Severity::Info, check, {pair.a, pair.b}, "cannot check P2P access between " + gpus + ": " + pair.peer_access.why_not, ""});
      continue;
    }
    std::string fix;
    if (pair.via_nvswitch) {
      fix = "NVSwitch systems need nvidia-fabricmanager running, at the driver's version (systemctl status nvidia-fabricmanager); ";
    } else if (pair.link_kind.rfind("NV", 0) == 0) {
      fix = "check the driver's log (`dmesg`) for NVLink errors and reset the GPUs; ";
    } else {
      fix = "PCIe ACS or the IOMMU blocks peer traffic through the switch: disable ACS on the switch ports (BIOS) or boot with "
            "iommu=pt, and in a VM the hypervisor must allow P2P; ";
    }
    out.push_back({Severity::Warning, check, {pair.a, pair.b},
                   gpus + " cannot access each other's memory (P2P) although " + pair.link_kind +
                       " links them: copies between them go through host memory",
                   fix + "`nvidia-smi topo -p2p r` shows what the driver allows"});
  }
  // A GPU is listed as fine only when every pair it is in was.
  std::sort(quiet.begin(), quiet.end());
  quiet.erase(std::unique(quiet.begin(), quiet.end()), quiet.end());
  quiet.erase(std::remove_if(quiet.begin(), quiet.end(),
                             [&troubled](int gpu) { return std::find(troubled.begin(), troubled.end(), gpu) != troubled.end(); }),
              quiet.end());
  if (!quiet.empty()) out.push_back({Severity::Ok, check, quiet, "P2P access between every pair on NVLink or a shared PCIe switch", ""});
}

}  // namespace

void judge_gpu_links(const NodeFacts& facts, const HealthLimits& limits, std::vector<Finding>& out) {
  check_each_gpu(facts, "nvlink.links_down", "every NVLink active",
                 [&facts](const GpuFacts& gpu, GpuCheck& check) { judge_links_down(facts, gpu, check); }, out);
  check_each_gpu(facts, "nvlink.errors", "no NVLink recovery, replay or CRC errors",
                 [&limits, &facts](const GpuFacts& gpu, GpuCheck& check) { judge_link_errors(gpu, check, limits, facts.host.uptime_s); },
                 out);
  if (!facts.nvml_why_not.empty()) return;
  judge_asymmetry(facts, out);
  judge_peer_access(facts, out);
}

}  // namespace gpubench
