#pragma once
// A GPU's PCIe link: what generation and width it trained at, what it could train at, and what it can carry
// each way in theory. The arithmetic is pure so that it can be tested without a GPU.
#include <nvml.h>

#include <optional>

#include "benchmarks/common/nvml_library.hpp"

namespace gpubench {

// Transfer rate of one lane, in GT/s, for PCIe generations 1 to 6; nullopt for any other number.
constexpr std::optional<double> pcie_lane_rate_gtps(unsigned generation) {
  switch (generation) {
    case 1: return 2.5;
    case 2: return 5.0;
    case 3: return 8.0;
    case 4: return 16.0;
    case 5: return 32.0;
    case 6: return 64.0;
    default: return std::nullopt;
  }
}

// The fraction of the raw bit rate left for packets: 8b/10b line code for generations 1-2, 128b/130b for 3-5.
// Generation 6 has no line code; it sends 256-byte FLITs of which 8 bytes are CRC and 6 are FEC, so 242/256.
// Its 6 data-link bytes are counted as data, as the DLLPs of generations 1-5 are by the figures above.
constexpr std::optional<double> pcie_encoding_efficiency(unsigned generation) {
  if (generation == 1 || generation == 2) return 8.0 / 10.0;
  if (generation >= 3 && generation <= 5) return 128.0 / 130.0;
  if (generation == 6) return 242.0 / 256.0;
  return std::nullopt;
}

// Theoretical rate of a link in each direction, in decimal GB/s: GT/s per lane x efficiency x lanes / 8 bits.
// PCIe 5.0 x16: 32 x 128/130 x 16 / 8 = 63.0 GB/s. Nullopt for an unknown generation or no lanes.
constexpr std::optional<double> pcie_link_peak_gbps(unsigned generation, unsigned width) {
  const std::optional<double> rate = pcie_lane_rate_gtps(generation);
  const std::optional<double> efficiency = pcie_encoding_efficiency(generation);
  if (!rate || !efficiency || width == 0) return std::nullopt;
  return *rate * *efficiency * width / 8.0;
}

// What NVML reports about a link; a field it could not read stays empty.
struct PcieLinkState {
  std::optional<unsigned> current_generation;
  std::optional<unsigned> current_width;
  std::optional<unsigned> max_generation;  // the most that both the GPU and its slot support
  std::optional<unsigned> max_width;
};

// True when the link trained at a lower generation or fewer lanes than it supports (a riser, a reseat or a
// BIOS setting to look at); false when it did not or when NVML could not tell.
constexpr bool link_below_max(const PcieLinkState& link) {
  const bool slow = link.current_generation && link.max_generation && *link.current_generation < *link.max_generation;
  const bool narrow = link.current_width && link.max_width && *link.current_width < *link.max_width;
  return slow || narrow;
}

// The peak of the link as it runs now (its current generation and width; the maximum where NVML gave no
// current value). Nullopt when either is unknown.
constexpr std::optional<double> link_peak_gbps(const PcieLinkState& link) {
  const std::optional<unsigned> generation = link.current_generation ? link.current_generation : link.max_generation;
  const std::optional<unsigned> width = link.current_width ? link.current_width : link.max_width;
  if (!generation || !width) return std::nullopt;
  return pcie_link_peak_gbps(*generation, *width);
}

// Reads the link through NVML. Empty when NVML or the device handle is missing or a call is unsupported.
// The GPU may lower its link speed when idle, so read it right after the link has carried traffic.
inline PcieLinkState read_pcie_link(const NvmlLibrary* nvml, nvmlDevice_t device) {
  PcieLinkState link;
  if (nvml == nullptr || device == nullptr) return link;
  using Getter = nvmlReturn_t (*)(nvmlDevice_t, unsigned int*);
  const auto read = [device](Getter getter, std::optional<unsigned>& into) {
    unsigned int value = 0;
    if (getter != nullptr && getter(device, &value) == NVML_SUCCESS) into = value;
  };
  read(nvml->nvmlDeviceGetCurrPcieLinkGeneration_, link.current_generation);
  read(nvml->nvmlDeviceGetCurrPcieLinkWidth_, link.current_width);
  read(nvml->nvmlDeviceGetMaxPcieLinkGeneration_, link.max_generation);
  read(nvml->nvmlDeviceGetMaxPcieLinkWidth_, link.max_width);
  return link;
}

}  // namespace gpubench
