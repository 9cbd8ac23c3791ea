// Links between GPUs: NVLinks down or erroring, NVLink counts that differ between GPUs or pairs of one node,
// and pairs without peer-to-peer access where their link should give it.
#include <algorithm>
#include <map>

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

void judge_link_errors(const GpuFacts& gpu, GpuCheck& check, const HealthLimits& limits) {
  if (!gpu.nvlinks.value || active_links(*gpu.nvlinks.value) == 0) return check.skip();
  std::string recovered;
  std::string noisy;
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
    if (c.recovery.value_or(0) > 0) recovered += (recovered.empty() ? "" : ", ") + name + ": " + std::to_string(*c.recovery);
    const std::uint64_t crc = c.crc_flit.value_or(0) + c.crc_data.value_or(0);
    if (c.replay.value_or(0) + crc >= limits.nvlink_link_errors) {
      noisy += (noisy.empty() ? "" : ", ") + name + ": " + std::to_string(c.replay.value_or(0)) + " replay, " + std::to_string(crc) + " CRC";
    }
  }
  if (readable == 0) return check.cannot_check("the NVLink error counters", why_unreadable);
  const std::string counters = "`nvidia-smi nvlink -e -i " + gpu.pci_bus_id + "` shows the counters since the driver loaded";
  if (!recovered.empty()) {
    check.flag(Severity::Critical, "NVLink recovery errors (" + recovered + "): links had to retrain while in use",
               "drain the GPU and run NVIDIA's field diagnostic; " + counters + "; errors that recur on a link point to the GPU or baseboard (RMA)");
  }
  if (!noisy.empty()) {
    check.flag(Severity::Warning,
               "NVLink replay and CRC errors at or above " + std::to_string(limits.nvlink_link_errors) + " on a link (" + noisy +
                   "): a marginal link resends data and loses bandwidth",
               counters + "; if they keep growing, drain the GPU and run NVIDIA's field diagnostic");
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
  check_each_gpu(facts, "nvlink.errors", "no NVLink recovery errors, replay and CRC errors below " + std::to_string(limits.nvlink_link_errors) + " per link",
                 [&limits](const GpuFacts& gpu, GpuCheck& check) { judge_link_errors(gpu, check, limits); }, out);
  if (!facts.nvml_why_not.empty()) return;
  judge_asymmetry(facts, out);
  judge_peer_access(facts, out);
}

}  // namespace gpubench
