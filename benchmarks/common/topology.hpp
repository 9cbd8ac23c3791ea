#pragma once
// How two GPUs are connected, named as `nvidia-smi topo -m` names it: NV<n> for n NVLinks (direct or
// through NVSwitches), else the PCIe path: PIX, PXB, PHB, NODE or SYS.
#include <nvml.h>

#include <string>

namespace gpubench {

class NvmlLibrary;

struct LinkDescription {
  std::string kind = "unknown";
  int nvlinks = 0;
  bool via_nvswitch = false;
};

LinkDescription describe_link(const NvmlLibrary& nvml, nvmlDevice_t a, nvmlDevice_t b);

}  // namespace gpubench
