#include "harness/doctor/gpu_identity.hpp"

namespace gpubench {

std::vector<GpuIdentity> gpu_identities(const NodeFacts& facts) {
  std::vector<GpuIdentity> identities;
  for (const GpuFacts& gpu : facts.gpus) identities.push_back({gpu.index, gpu.pci_bus_id, gpu.uuid, gpu.serial});
  return identities;
}

std::string identity_text(const GpuIdentity& gpu) {
  const auto or_unknown = [](const std::string& text) { return text.empty() ? std::string("unknown") : text; };
  return "PCI " + or_unknown(gpu.pci_bus_id) + ", UUID " + or_unknown(gpu.uuid) + ", serial " + or_unknown(gpu.serial);
}

}  // namespace gpubench
