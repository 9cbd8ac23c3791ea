#pragma once
// How a GPU is named where someone has to find the very board: CUDA's index for this process, the PCI bus id,
// the UUID (what nvidia-smi and the scheduler know it by) and the serial number printed on the board (what an
// RMA asks for).
#include <string>
#include <vector>

#include "harness/doctor/node_facts.hpp"

namespace gpubench {

struct GpuIdentity {
  int index = 0;
  std::string pci_bus_id;
  std::string uuid;    // "" when unknown
  std::string serial;  // "" when the GPU reports none
};

std::vector<GpuIdentity> gpu_identities(const NodeFacts& facts);

// "PCI 0000:19:00.0, UUID GPU-8c6f..., serial 1652823054321", each part "unknown" when it is
std::string identity_text(const GpuIdentity& gpu);

}  // namespace gpubench
