#pragma once
// What one GPU sample means for the rules, from what the counters measure:
//   - NVML's utilisation is the share of the interval in which anything ran on the GPU, copies included: back to
//     back pinned copies read 99 % with SM activity 0. The share the copies explain is their rate over the link's
//     ceiling (pageable copies of 7.2 GB/s on a 55 GB/s link read 14 %); what is left is kernels.
//   - GPM's SM activity is the share of time the SMs held a warp, averaged over all SMs: kernels that run all the
//     time but fill few SMs read high utilisation and low SM activity.
//   - A link at its measured ceiling (pinned copies, or pageable ones at the pageable rate) explains a GPU whose
//     SMs are idle: it waits for the copies, which host_transfers_at_ceiling and nvlink_near_ceiling report.
#include <optional>

#include "harness/watch/node_ceilings.hpp"
#include "harness/watch/watch_timeline.hpp"

namespace gpubench {

// DCGM's guidance for DCGM_FI_PROF_SM_ACTIVE: "a value of 0.8 or greater is necessary, but not sufficient, for
// effective use of the GPU. A value less than 0.5 likely indicates ineffective GPU usage."
inline constexpr double kSmActiveLow = 0.5;
inline constexpr double kSmActiveComputeBound = 0.8;
// Without GPM, NVML's utilisation stands in: the field guide's "GPU utilisation under 30 % for long stretches".
inline constexpr double kUtilizationLow = 0.30;
// Kernels counted as running back to back: 80 % of the interval (own choice).
inline constexpr double kKernelsBackToBack = 0.80;
// Bandwidths counted as at a measured ceiling: 80 % of it (own choice; the ceilings are already what this node
// reaches, about 92 % of an H200's theoretical HBM bandwidth).
inline constexpr double kNearCeiling = 0.80;
// Utilisation counted as busy, for judging the PCIe link under load (own choice).
inline constexpr double kUtilizationBusy = 0.50;
// Tensor pipes under 5 % with the FP32 or FP16 pipes at 20 % or more: the math runs, but not on Tensor Cores
// (own choice).
inline constexpr double kTensorIdle = 0.05;
inline constexpr double kMathPipeBusy = 0.20;
// A rate counted as at the pageable ceiling: within 0.8 to 1.25 times it (own choice).
inline constexpr double kPageableBandLow = 0.80;
inline constexpr double kPageableBandHigh = 1.25;
// GPM's PCIe counters count link bytes, headers included: on an H200, back-to-back pinned copies that moved 55 GB/s
// read 58.9 GB/s there (issue #31). Payload = link bytes x 55 / 58.9.
inline constexpr double kPcieLinkPayloadShare = 55.0 / 58.9;

// The SMs' activity: GPM's SM activity where `gpm`, else NVML's utilisation; nothing when the sample lacks it.
std::optional<double> sm_activity(const GpuSample& s, bool gpm);
// Whether the GPU counts as idle by that activity (under 0.5 of SM activity, or 30 % utilisation without GPM).
bool activity_low(double activity, bool gpm);

// The share of the interval copies kept the GPU busy: each direction's PCIe payload over this node's pinned
// ceiling (or the link's theoretical rate where none was measured), NVLink over the fastest measured peer copy;
// the largest of them, at most 1. Nothing when the sample has no link counters.
std::optional<double> copy_share(const GpuSample& s, const GpuTimeline& gpu, const GpuCeilings& ceilings);
// Utilisation less what copies explain: the share of the interval kernels ran.
std::optional<double> kernel_utilization(const GpuSample& s, const GpuTimeline& gpu, const GpuCeilings& ceilings);

// Where one direction of PCIe ran, from its link bytes: at 80 %+ of this node's pinned ceiling, within 0.8-1.25x
// its pageable one (and under the pinned), or below both.
enum class PcieLevel { Below, Pageable, Pinned };
PcieLevel pcie_level(double link_bytes, const Ceiling& pinned, const std::optional<Ceiling>& pageable);
// NVLink one way at 80 %+ of the fastest measured peer copy; nothing without the counters or a P2P ceiling.
std::optional<bool> nvlink_at_ceiling(const GpuSample& s, const GpuCeilings& ceilings);
// Either link at a ceiling: the GPU's idle SMs are waiting on copies, which the link rules report.
bool copies_at_ceiling(const GpuSample& s, const GpuCeilings& ceilings);

}  // namespace gpubench
