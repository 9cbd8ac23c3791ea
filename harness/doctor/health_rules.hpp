#pragma once
// The health rules of `gpubench doctor`: facts read from a node in, findings out. Pure, so that every rule
// can be tested on a machine without a GPU.
#include <cstdint>
#include <optional>
#include <vector>

#include "harness/doctor/finding.hpp"
#include "harness/doctor/node_facts.hpp"
#include "harness/doctor/node_profile.hpp"

namespace gpubench {

// Where a count or a temperature starts to matter. Rules of thumb, not NVIDIA limits.
struct HealthLimits {
  std::uint64_t correctable_ecc_errors = 100;  // volatile corrected errors since the driver loaded
  unsigned temperature_margin_c = 10;          // warn this close to the slowdown temperature
  // NVLink CRC errors of one link, per second on average since the machine booted. NVIDIA's DCGM flags CRC
  // errors from 100 a second (its hardware limits: below that the link's retries absorb them); healthy H200
  // links were seen to gather a few hundred under hours of traffic.
  double nvlink_crc_errors_per_second = 100;
  // Xids within this many seconds before now count at their full severity; older ones since boot a step lower.
  double xid_window_s = 24 * 3600.0;
  // PCIe replays (NVML's counter since the driver loaded), per minute on average since boot. DCGM's health watch
  // warned from 8 replays a minute up to DCGM 3.3 (DCGM_LIMIT_MAX_PCIREPLAY_RATE, common/DcgmGPUHardwareLimits.h);
  // DCGM 4 allows a bit error rate of 1e-12 per lane instead (31 a minute at gen 5 x16).
  double pcie_replays_per_minute = 8;
  // PCIe replays while a load runs: DCGM's diagnostic fails its pcie test above 80 replays during the test
  // (max_pcie_replays, nvvs/plugin_src/pcie/Pcie.cpp, the same from DCGM 2 to 4.6).
  unsigned pcie_replays_per_run = 80;
};

// Every finding, worst first; checks that ran and found nothing appear once as Severity::Ok. With `expected`,
// the node is also held against that profile (inventory.* findings).
std::vector<Finding> judge_node_health(const NodeFacts& facts, const HealthLimits& limits = {},
                                       const std::optional<NodeProfile>& expected = std::nullopt);

// The GPUs' PCIe error counters read before and after a load (acceptance reads them around its suite and stress,
// reread_link_errors): uncorrectable AER errors that appeared are critical, correctable ones a warning, replays
// above pcie_replays_per_run critical and fewer info. The GPUs with nothing new make one ok finding.
std::vector<Finding> judge_pcie_error_growth(const NodeFacts& before, const NodeFacts& after, const HealthLimits& limits = {});

// The GPUs' NVLink error counters read before and after a load that ran `load_seconds` (acceptance's suite and
// stress, with traffic over every link): recovery errors that appeared are critical (a link retrained under load),
// replays a warning, CRC errors a warning from nvlink_crc_errors_per_second over the load and info below it; a
// link that was active before and is not after is critical. The GPUs with nothing new make one ok finding; GPUs
// without NVLink are left out.
std::vector<Finding> judge_nvlink_error_growth(const NodeFacts& before, const NodeFacts& after, double load_seconds,
                                               const HealthLimits& limits = {});

bool any_critical(const std::vector<Finding>& findings);

}  // namespace gpubench
