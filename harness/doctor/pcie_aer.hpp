#pragma once
// PCIe Advanced Error Reporting counters from sysfs, for a GPU and the bridge port above it (the other end of its
// link). The kernel keeps them since boot in /sys/bus/pci/devices/ADDRESS/aer_dev_correctable, aer_dev_nonfatal
// and aer_dev_fatal, one "NAME COUNT" line per kind of error and a TOTAL_ERR_COR, TOTAL_ERR_NONFATAL or
// TOTAL_ERR_FATAL line (the kernel's Documentation/ABI/testing/sysfs-bus-pci-devices-aer). Reads only.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/doctor/node_facts.hpp"

namespace gpubench {

struct AerFile {
  // The TOTAL_ERR_* line: the error messages the device sent. One message may report several errors, so the
  // named counts need not add up to it (the ABI document says so).
  std::uint64_t total = 0;
  std::map<std::string, std::uint64_t> nonzero;  // the named counters above zero
};

// One aer_dev_* file's text. Throws std::invalid_argument naming the line that is not "NAME COUNT".
AerFile parse_aer_file(const std::string& text);

// devices_dir is /sys/bus/pci/devices (a parameter so that tests can give another tree).
Reading<AerCounts> read_aer_counts(const std::string& devices_dir, const std::string& address);

// The address of the bridge port above `address` in sysfs's device tree, or "" when its parent is a PCI root
// ("pci0000:00"), as for a GPU straight on a root bus in many VMs.
std::string upstream_port(const std::string& devices_dir, const std::string& address);

// The GPU's counts, then the upstream port's where there is one.
std::vector<PcieFunctionAer> read_pcie_aer(const std::string& devices_dir, const std::string& gpu_address);

}  // namespace gpubench
