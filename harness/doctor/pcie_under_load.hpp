#pragma once
// An idle GPU lowers its PCIe link generation to save power, so a link found below its maximum is read again
// while doctor copies host memory to the GPU for a moment. Only doctor's own buffers are touched.
#include <nvml.h>

#include "harness/doctor/node_facts.hpp"

namespace gpubench {

class NvmlLibrary;

// The highest generation and width seen during about a quarter of a second of host-to-device copies;
// the maximums are those of at_rest.
Reading<PcieLink> read_pcie_link_under_load(const NvmlLibrary& nvml, nvmlDevice_t device, int cuda_index, const PcieLink& at_rest);

}  // namespace gpubench
