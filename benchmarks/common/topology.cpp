#include "benchmarks/common/topology.hpp"

#include <algorithm>
#include <cctype>

#include "benchmarks/common/nvml_library.hpp"

namespace gpubench {
namespace {

// NVML writes bus ids with an 8-digit domain ("00000000:3B:00.0"); compare without it, in lower case.
std::string normalise_bus_id(std::string id) {
  for (char& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::size_t colon = id.find(':');
  if (colon != std::string::npos && id.find(':', colon + 1) != std::string::npos) id = id.substr(colon + 1);
  return id;
}

// Active NVLinks from `from` whose far end is `to`'s PCI bus id (direct links, no NVSwitch).
int direct_nvlinks(const NvmlLibrary& nvml, nvmlDevice_t from, const std::string& to_bus_id) {
  if (!nvml.nvmlDeviceGetNvLinkState_ || !nvml.nvmlDeviceGetNvLinkRemotePciInfo_) return 0;
  int links = 0;
  for (unsigned int link = 0; link < NVML_NVLINK_MAX_LINKS; ++link) {
    nvmlEnableState_t active{};
    if (nvml.nvmlDeviceGetNvLinkState_(from, link, &active) != NVML_SUCCESS || active != NVML_FEATURE_ENABLED) continue;
    nvmlPciInfo_t remote{};
    if (nvml.nvmlDeviceGetNvLinkRemotePciInfo_(from, link, &remote) != NVML_SUCCESS) continue;
    if (normalise_bus_id(remote.busId) == to_bus_id) ++links;
  }
  return links;
}

int active_nvlinks(const NvmlLibrary& nvml, nvmlDevice_t dev) {
  if (!nvml.nvmlDeviceGetNvLinkState_) return 0;
  int links = 0;
  for (unsigned int link = 0; link < NVML_NVLINK_MAX_LINKS; ++link) {
    nvmlEnableState_t active{};
    if (nvml.nvmlDeviceGetNvLinkState_(dev, link, &active) == NVML_SUCCESS && active == NVML_FEATURE_ENABLED) ++links;
  }
  return links;
}

// nvidia-smi topo -m names: PIX, PXB, PHB, NODE, SYS.
const char* pcie_path_name(nvmlGpuTopologyLevel_t level) {
  switch (level) {
    case NVML_TOPOLOGY_INTERNAL: return "SELF";
    case NVML_TOPOLOGY_SINGLE: return "PIX";
    case NVML_TOPOLOGY_MULTIPLE: return "PXB";
    case NVML_TOPOLOGY_HOSTBRIDGE: return "PHB";
    case NVML_TOPOLOGY_NODE: return "NODE";
    case NVML_TOPOLOGY_SYSTEM: return "SYS";
  }
  return "unknown";
}

}  // namespace

LinkDescription describe_link(const NvmlLibrary& nvml, nvmlDevice_t a, nvmlDevice_t b) {
  LinkDescription link;
  nvmlPciInfo_t pci_b{};
  if (nvml.nvmlDeviceGetPciInfo_ != nullptr && nvml.nvmlDeviceGetPciInfo_(b, &pci_b) == NVML_SUCCESS) {
    link.nvlinks = direct_nvlinks(nvml, a, normalise_bus_id(pci_b.busId));
  }
  if (link.nvlinks == 0) {
    // Behind NVSwitches every link ends at a switch; both GPUs having active links means they talk over NVLink.
    const int from_a = active_nvlinks(nvml, a);
    const int from_b = active_nvlinks(nvml, b);
    if (from_a > 0 && from_b > 0) {
      link.nvlinks = std::min(from_a, from_b);
      link.via_nvswitch = true;
    }
  }
  if (link.nvlinks > 0) {
    link.kind = "NV" + std::to_string(link.nvlinks);
    return link;
  }
  nvmlGpuTopologyLevel_t level{};
  if (nvml.nvmlDeviceGetTopologyCommonAncestor_ != nullptr &&
      nvml.nvmlDeviceGetTopologyCommonAncestor_(a, b, &level) == NVML_SUCCESS) {
    link.kind = pcie_path_name(level);
  }
  return link;
}

}  // namespace gpubench
