#pragma once
// Reads what `gpubench doctor` judges: NVML, CUDA and sysfs for each GPU, the links between the GPUs, and
// the host. Reads only and changes no GPU setting; whatever cannot be read is kept with the reason.
#include <string>
#include <vector>

#include "harness/doctor/node_facts.hpp"
#include "harness/environment/fingerprint.hpp"

namespace gpubench {

class NvmlLibrary;

// nvml may be null (nvml_why_not then says why). devices are CUDA indexes, used when cuda found GPUs.
NodeFacts read_node_facts(const NvmlLibrary* nvml, const std::string& nvml_why_not, const CudaStatus& cuda,
                          const std::vector<int>& devices);

// Reads the GPUs' link error counters again (PCIe AER counts and replays, each NVLink's state and error counters),
// the rest of `facts` as it was: to compare with the first reading after a load (judge_pcie_error_growth,
// judge_nvlink_error_growth).
void reread_link_errors(const NvmlLibrary* nvml, NodeFacts& facts);

}  // namespace gpubench
