#include "harness/watch/gpu_activity.hpp"

#include <algorithm>

namespace gpubench {
namespace {

// A PCIe link's rate one way, in GB/s per lane, after line encoding: 8b/10b up to Gen 2, 128b/130b from Gen 3.
std::optional<double> pcie_lane_gbps(int generation) {
  switch (generation) {
    case 1: return 0.25;
    case 2: return 0.5;
    case 3: return 8.0 / 8 * 128 / 130;
    case 4: return 16.0 / 8 * 128 / 130;
    case 5: return 32.0 / 8 * 128 / 130;
    case 6: return 64.0 / 8 * 242 / 256;  // FLIT mode: 242 bytes of payload in each 256
    default: return std::nullopt;
  }
}

const Ceiling* fastest_peer(const GpuCeilings& ceilings) {
  const Ceiling* best = nullptr;
  for (const auto& peer : ceilings.p2p_out_gbps) {
    if (!best || peer.second.value > best->value) best = &peer.second;
  }
  return best;
}

}  // namespace

std::optional<double> sm_activity(const GpuSample& s, bool gpm) { return gpm ? s.sm_active : s.utilization; }

bool activity_low(double activity, bool gpm) { return activity < (gpm ? kSmActiveLow : kUtilizationLow); }

std::optional<double> copy_share(const GpuSample& s, const GpuTimeline& gpu, const GpuCeilings& ceilings) {
  std::optional<double> share;
  const auto take = [&](double value) { share = std::max(share.value_or(0.0), value); };
  std::optional<double> link;  // the link's theoretical rate one way, where no copy was measured
  if (gpu.pcie_max_gen && gpu.pcie_max_width) {
    if (const auto lane = pcie_lane_gbps(*gpu.pcie_max_gen)) link = *lane * *gpu.pcie_max_width;
  }
  const auto pcie = [&](const std::optional<double>& link_bytes, const std::optional<Ceiling>& pinned) {
    if (!link_bytes) return;
    if (pinned && pinned->value > 0) {
      take(*link_bytes * kPcieLinkPayloadShare / pinned->value);
    } else if (link && *link > 0) {
      take(*link_bytes / *link);
    }
  };
  pcie(s.pcie_rx_gbps, ceilings.h2d_pinned_gbps);
  pcie(s.pcie_tx_gbps, ceilings.d2h_pinned_gbps);
  if (const Ceiling* peer = fastest_peer(ceilings); peer && peer->value > 0) {
    if (s.nvlink_tx_gbps) take(*s.nvlink_tx_gbps / peer->value);
    if (s.nvlink_rx_gbps) take(*s.nvlink_rx_gbps / peer->value);
  }
  if (share) share = std::min(1.0, *share);
  return share;
}

std::optional<double> kernel_utilization(const GpuSample& s, const GpuTimeline& gpu, const GpuCeilings& ceilings) {
  if (!s.utilization) return std::nullopt;
  return std::max(0.0, *s.utilization - copy_share(s, gpu, ceilings).value_or(0.0));
}

PcieLevel pcie_level(double link_bytes, const Ceiling& pinned, const std::optional<Ceiling>& pageable) {
  const double payload = link_bytes * kPcieLinkPayloadShare;
  if (payload >= kNearCeiling * pinned.value) return PcieLevel::Pinned;
  if (pageable && payload >= kPageableBandLow * pageable->value && payload <= kPageableBandHigh * pageable->value) {
    return PcieLevel::Pageable;
  }
  return PcieLevel::Below;
}

std::optional<bool> nvlink_at_ceiling(const GpuSample& s, const GpuCeilings& ceilings) {
  const Ceiling* peer = fastest_peer(ceilings);
  if (!peer || !s.nvlink_tx_gbps || !s.nvlink_rx_gbps) return std::nullopt;
  return std::max(*s.nvlink_tx_gbps, *s.nvlink_rx_gbps) >= kNearCeiling * peer->value;
}

bool copies_at_ceiling(const GpuSample& s, const GpuCeilings& c) {
  const bool into = s.pcie_rx_gbps && c.h2d_pinned_gbps &&
                    pcie_level(*s.pcie_rx_gbps, *c.h2d_pinned_gbps, c.h2d_pageable_gbps) != PcieLevel::Below;
  const bool out_of = s.pcie_tx_gbps && c.d2h_pinned_gbps &&
                      pcie_level(*s.pcie_tx_gbps, *c.d2h_pinned_gbps, c.d2h_pageable_gbps) != PcieLevel::Below;
  return into || out_of || nvlink_at_ceiling(s, c).value_or(false);
}

}  // namespace gpubench
