#pragma once
// The health rules of `gpubench doctor`: facts read from a node in, findings out. Pure, so that every rule
// can be tested on a machine without a GPU.
#include <cstdint>
#include <vector>

#include "harness/doctor/finding.hpp"
#include "harness/doctor/node_facts.hpp"

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
};

// Every finding, worst first; checks that ran and found nothing appear once as Severity::Ok.
std::vector<Finding> judge_node_health(const NodeFacts& facts, const HealthLimits& limits = {});

bool any_critical(const std::vector<Finding>& findings);

}  // namespace gpubench
