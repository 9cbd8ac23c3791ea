#include "harness/watch/diagnosis_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "harness/results/clock_events.hpp"
#include "harness/watch/detail/rule_support.hpp"
#include "harness/watch/gpu_activity.hpp"
#include "harness/watch/steady_part.hpp"

namespace gpubench {
namespace {

using namespace watch_detail;

constexpr double kMemoryNearlyFull = 0.95;  // own choice: 5 % headroom (7 GiB of an H200's 141 GiB)
// Thermal, hardware and power-brake slowdowns count from a tenth of the samples; the software power cap, which
// sustained heavy loads reach by design, only from most of them (own choices).
constexpr double kSlowdownShare = 0.10;

}  // namespace

const char* outcome_name(RuleOutcome outcome) {
  switch (outcome) {
    case RuleOutcome::Fired: return "fired";
    case RuleOutcome::Clear: return "clear";
    case RuleOutcome::CouldNotRun: return "could not run";
  }
  return "clear";
}

const char* outcome_mark(RuleOutcome outcome) {
  switch (outcome) {
    case RuleOutcome::Fired: return "FIRED";
    case RuleOutcome::Clear: return "clear";
    case RuleOutcome::CouldNotRun: return "not run";
  }
  return "";
}

std::string evidence_without_outcome(const WatchFinding& finding) {
  const std::string prefix = "could not run: ";
  return finding.evidence.compare(0, prefix.size(), prefix) == 0 ? finding.evidence.substr(prefix.size())
                                                                  : finding.evidence;
}

// The rules below read alike on purpose: a Rule (name and the source of its threshold), the tally of the samples
// that can judge its condition, its evidence, and the verdict of most samples. What they share is written once in
// detail/rule_support (Rule, tally, median); what is left is each rule's own condition, evidence and fix.
WatchFinding tensor_cores_idle(const RuleInput& in) {
  const Rule rule{"tensor_cores_idle",
                  "DCGM: SM activity 0.8 or more for a compute-bound load; tensor pipes under 5 % with "
                  "FP32/FP16 pipes at 20 % or more is gpubench's choice"};
  const Tally t = tally(in.gpu.samples, [](const GpuSample& s) -> std::optional<bool> {
    if (!s.sm_active || !s.tensor_active || !s.fp32_active) return std::nullopt;
    const double math = std::max(*s.fp32_active, s.fp16_active.value_or(0));
    return *s.sm_active >= kSmActiveComputeBound && *s.tensor_active < kTensorIdle && math >= kMathPipeBusy;
  });
  if (!t.enough()) {
    return rule.too_few(t, "SM, tensor and FP32 pipe activity (GPM)", true);
  }
  std::string evidence = "compute-bound (SM activity " + percent(kSmActiveComputeBound) +
                         "+) with tensor pipes under " + percent(kTensorIdle) + " and FP32/FP16 pipes at " +
                         percent(kMathPipeBusy) + "+ in " + t.counts() + "; median tensor activity " +
                         percent(*median(in.gpu.samples, &GpuSample::tensor_active));
  const auto fp32 = in.ceilings.gemm_tflops.find("fp32");
  const auto bf16 = in.ceilings.gemm_tflops.find("bf16");
  if (t.majority() && fp32 != in.ceilings.gemm_tflops.end() && bf16 != in.ceilings.gemm_tflops.end()) {
    evidence += "; this GPU measured " + fixed(fp32->second.value, 0) + " TFLOP/s in FP32 GEMM and " +
                fixed(bf16->second.value, 0) + " in BF16 on Tensor Cores";
  }
  return rule.judged(t, evidence,
                     "Run the matrix math on Tensor Cores: TF32 for FP32 models "
                     "(torch.backends.cuda.matmul.allow_tf32, CUBLAS_TF32_TENSOR_OP_MATH) or mixed precision "
                     "(torch.autocast with BF16); keep GEMM dimensions multiples of 8 (16 for FP8)");
}

WatchFinding memory_bandwidth_bound(const RuleInput& in) {
  const Rule rule{"memory_bandwidth_bound",
                  "DRAM bandwidth (DCGM_FI_PROF_DRAM_ACTIVE x theoretical peak) at 80 % or more of "
                  "this node's measured HBM bandwidth: gpubench's choice"};
  if (!in.ceilings.hbm_gbps) {
    return rule.not_run("the ceilings have no memory/read or memory/triad 1GiB figure for GPU " +
                        std::to_string(in.gpu.index));
  }
  if (!in.gpu.dram_peak_gbps) {
    return rule.not_run("the timeline lacks the GPU's theoretical DRAM bandwidth (dram_peak_gbps), which turns DRAM "
                        "activity into GB/s");
  }
  const double peak = *in.gpu.dram_peak_gbps, ceiling = in.ceilings.hbm_gbps->value;
  const Tally t = tally(in.gpu.samples, [&](const GpuSample& s) -> std::optional<bool> {
    if (!s.dram_active) return std::nullopt;
    return *s.dram_active * peak >= kNearCeiling * ceiling;
  });
  if (!t.enough()) {
    return rule.too_few(t, "DRAM activity (GPM)", true);
  }
  const std::string evidence = "DRAM traffic at " + percent(kNearCeiling) + "+ of the measured " + gbps(ceiling) +
                               " (" + in.ceilings.hbm_gbps->metric + ") in " + t.counts() + "; median " +
                               gbps(*median(in.gpu.samples, &GpuSample::dram_active) * peak);
  return rule.judged(t, evidence,
                     "The job moves bytes as fast as this GPU's HBM allows, so it speeds up only by moving fewer: fuse "
                     "element-wise kernels (torch.compile), keep activations in BF16/FP8, reuse data on chip (larger "
                     "tiles or batches); Nsight Compute's memory workload analysis shows which kernels");
}

WatchFinding many_small_kernels(const RuleInput& in) {
  const Rule rule{"many_small_kernels",
                  "DCGM: SM activity under 0.5 is ineffective use; kernels running 80 %+ of the time "
                  "(NVML utilisation less the share copies explain) beside it is gpubench's choice"};
  const Tally t = tally(in.gpu.samples, [&](const GpuSample& s) -> std::optional<bool> {
    const std::optional<double> kernels = kernel_utilization(s, in.gpu, in.ceilings);
    if (!kernels || !s.sm_active) return std::nullopt;
    return *kernels >= kKernelsBackToBack && *s.sm_active < kSmActiveLow;
  });
  if (!t.enough()) {
    return rule.too_few(t, "utilisation and SM activity (GPM)", true);
  }
  std::vector<double> kernels;
  for (const GpuSample& s : in.gpu.samples) {
    if (const auto k = kernel_utilization(s, in.gpu, in.ceilings)) kernels.push_back(*k);
  }
  const std::string evidence = "kernels running " + percent(kKernelsBackToBack) + "+ of the time (copies aside) with "
                               "SM activity under " + percent(kSmActiveLow) + " in " + t.counts() +
                               ": they run back to back but fill few SMs; median kernel time " +
                               percent(*median_of(kernels)) + ", SM activity " +
                               percent(*median(in.gpu.samples, &GpuSample::sm_active));
  return rule.judged(t, evidence,
                     "The GPU runs small kernels one after another: fuse them (torch.compile), give each more work "
                     "(larger batches or tiles), and capture the sequence in a CUDA Graph to close the gaps between "
                     "launches; Nsight Systems shows the kernels and their sizes");
}

WatchFinding memory_nearly_full(const RuleInput& in) {
  const Rule rule{"memory_nearly_full", "95 % of the GPU's memory used: gpubench's choice"};
  const Tally t = tally(in.gpu.samples, [](const GpuSample& s) -> std::optional<bool> {
    if (!s.memory_used_gib || !s.memory_total_gib || *s.memory_total_gib <= 0) return std::nullopt;
    return *s.memory_used_gib >= kMemoryNearlyFull * *s.memory_total_gib;
  });
  if (!t.enough()) return rule.too_few(t, "memory used and total");
  const std::string evidence = "memory " + percent(kMemoryNearlyFull) + "+ full in " + t.counts() + "; median " +
                               fixed(*median(in.gpu.samples, &GpuSample::memory_used_gib), 1) + " of " +
                               fixed(*median(in.gpu.samples, &GpuSample::memory_total_gib), 1) + " GiB used";
  return rule.judged(t, evidence,
                     "Little headroom: check whether the framework only reserves it (JAX preallocates 75 %, PyTorch's "
                     "caching allocator keeps freed blocks: torch.cuda.memory_allocated); if the job needs it, lower "
                     "the batch, checkpoint activations, or set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True");
}

WatchFinding thermal_or_power_slowdown(const RuleInput& in) {
  const Rule rule{"thermal_or_power_slowdown",
                  "NVML's clock-event reasons (not a fixed temperature); a tenth of the samples for "
                  "thermal/hardware slowdowns, most of them for the power cap with the enforced limit "
                  "below the board's default: gpubench's choice"};
  std::size_t slowed = 0, capped = 0;
  std::vector<std::string> seen;
  const Tally t = tally(in.gpu.samples, [&](const GpuSample& s) -> std::optional<bool> {
    if (!s.clock_event_reasons) return std::nullopt;
    for (int bit = 0; bit < 64; ++bit) {
      const std::uint64_t reason = *s.clock_event_reasons & (std::uint64_t{1} << bit);
      if (!reason || !is_throttling(reason)) continue;
      for (const std::string& name : clock_event_names(reason)) {
        if (std::find(seen.begin(), seen.end(), name) == seen.end()) seen.push_back(name);
      }
    }
    const bool slowdown = is_slowdown(*s.clock_event_reasons);
    const bool cap = is_throttling(*s.clock_event_reasons) && !slowdown;
    slowed += slowdown;
    capped += cap;
    return slowdown || cap;
  });
  if (!t.enough()) return rule.too_few(t, "clock-event reasons");
  const bool fired_slowdown = slowed >= kSlowdownShare * t.readable;
  // At the board's default limit the power cap is how a dense load runs on this class of GPU, and this node's
  // ceilings were measured under it: the cap is a finding only where the limit was lowered.
  const std::optional<double> limit = in.gpu.power_limit_w, board_default = in.gpu.default_power_limit_w;
  const bool limit_lowered = limit && board_default && *limit < *board_default - 0.5;
  const bool mostly_capped = 2 * capped > t.readable;
  const bool fired_cap = mostly_capped && limit_lowered;
  std::string evidence = "thermal or hardware slowdown in " + std::to_string(slowed) + " and power cap alone in " +
                         std::to_string(capped) + " of " + std::to_string(t.readable) + " samples";
  if (!seen.empty()) {
    evidence += " (reasons seen:";
    for (const std::string& name : seen) evidence += " " + name;
    evidence += ")";
  }
  if (const std::optional<double> clock = median(in.gpu.samples, &GpuSample::sm_clock_mhz)) {
    evidence += "; median SM clock " + fixed(*clock, 0) + " MHz";
  }
  if (const std::optional<double> power = median(in.gpu.samples, &GpuSample::power_w)) {
    evidence += ", power " + fixed(*power, 0) + " W";
  }
  if (const std::optional<double> temp = median(in.gpu.samples, &GpuSample::temperature_c)) {
    evidence += ", temperature " + fixed(*temp, 0) + " C";
    if (in.gpu.slowdown_temperature_c) evidence += " (slowdown at " + fixed(*in.gpu.slowdown_temperature_c, 0) + " C)";
  }
  if (limit && board_default) {
    evidence += "; power limit " + fixed(*limit, 0) + " W, the board's default " + fixed(*board_default, 0) + " W";
    if (mostly_capped && !limit_lowered) evidence += ": capped at the default, as a dense load is on this GPU";
  } else if (mostly_capped) {
    evidence += "; whether the power limit was lowered could not be read";
  }
  const std::string fix =
      fired_slowdown ? "Check the cooling and power delivery: inlet temperature, airflow and fans, the heat sink's "
                       "contact; a power-brake reason comes from the node's BMC or power supply "
                       "(nvidia-smi -q -d PERFORMANCE,TEMPERATURE shows the reasons)"
      : fired_cap ? "The power limit is below the board's default: if not intended, restore it as root with "
                    "`nvidia-smi -i PCI_BUS_ID -pl " + fixed(*board_default, 0) +
                    "` (a node-level cap in the BMC can also lower it)"
                  : "";
  return rule.ended(fired_slowdown || fired_cap ? RuleOutcome::Fired : RuleOutcome::Clear, evidence, fix);
}

WatchFinding host_transfers_at_ceiling(const RuleInput& in) {
  const Rule rule{"host_transfers_at_ceiling",
                  "GPM PCIe bytes (DCGM_FI_PROF_PCIE_RX/TX_BYTES, link bytes x 55/58.9 for payload, "
                  "measured on an H200) at 80 % of the measured pinned ceiling, or within 0.8-1.25x "
                  "the pageable one: gpubench's choice"};
  const GpuCeilings& c = in.ceilings;
  if (!c.h2d_pinned_gbps || !c.d2h_pinned_gbps) {
    return rule.not_run("the ceilings have no pcie/h2d and pcie/d2h pinned 1GiB figures for GPU " +
                        std::to_string(in.gpu.index));
  }
  struct Direction {
    const char* name;
    std::optional<double> GpuSample::*link;
    const Ceiling& pinned;
    const std::optional<Ceiling>& pageable;
  };
  const Direction directions[] = {
      {"host to device", &GpuSample::pcie_rx_gbps, *c.h2d_pinned_gbps, c.h2d_pageable_gbps},
      {"device to host", &GpuSample::pcie_tx_gbps, *c.d2h_pinned_gbps, c.d2h_pageable_gbps}};
  std::string evidence, fix;
  bool fired = false;
  for (const Direction& d : directions) {
    std::size_t at_pageable = 0;
    const Tally pinned = tally(in.gpu.samples, [&](const GpuSample& s) -> std::optional<bool> {
      if (!(s.*d.link)) return std::nullopt;
      const PcieLevel level = pcie_level(*(s.*d.link), d.pinned, d.pageable);
      at_pageable += level == PcieLevel::Pageable;
      return level == PcieLevel::Pinned;
    });
    if (!pinned.enough()) {
      return rule.too_few(pinned, "PCIe bytes (GPM)", true);
    }
    const double payload = *median(in.gpu.samples, d.link) * kPcieLinkPayloadShare;
    evidence += std::string(evidence.empty() ? "" : "; ") + d.name + ": median " + gbps(payload) + " payload, at " +
                percent(kNearCeiling) + "+ of the pinned " + gbps(d.pinned.value) + " in " + pinned.counts();
    if (d.pageable) {
      evidence += ", at the pageable " + gbps(d.pageable->value) + " in " + std::to_string(at_pageable);
    }
    if (pinned.majority()) {
      fired = true;
      fix = "Copies run at the pinned ceiling of this link: move fewer bytes (keep data on the GPU between steps, "
            "send compact types), overlap copies with compute on separate streams, or spread them over GPUs";
    } else if (2 * at_pageable > pinned.readable) {
      fired = true;
      if (fix.empty()) {
        fix = "Copies run near this node's pageable ceiling, well under the pinned one: if the host buffers are "
              "pageable, pin them (DataLoader pin_memory=True, cudaHostAlloc/cudaHostRegister)";
      }
    }
  }
  return rule.ended(fired ? RuleOutcome::Fired : RuleOutcome::Clear, evidence, fix);
}

WatchFinding nvlink_near_ceiling(const RuleInput& in) {
  const Rule rule{"nvlink_near_ceiling",
                  "GPM NVLink bytes (DCGM_FI_PROF_NVLINK_RX/TX_BYTES) at 80 % or more of this node's "
                  "measured P2P copy-engine bandwidth (p2p/ce_unidir/1GiB): gpubench's choice"};
  if (in.ceilings.p2p_out_gbps.empty()) {
    return rule.not_run("the ceilings have no p2p/ce_unidir 1GiB figure from GPU " + std::to_string(in.gpu.index));
  }
  const Ceiling* best = nullptr;
  for (const auto& peer : in.ceilings.p2p_out_gbps) {
    if (!best || peer.second.value > best->value) best = &peer.second;
  }
  const Tally t = tally(in.gpu.samples, [&](const GpuSample& s) { return nvlink_at_ceiling(s, in.ceilings); });
  if (!t.enough()) {
    return rule.too_few(t, "NVLink bytes (GPM)", true);
  }
  const std::string evidence = "NVLink traffic one way at " + percent(kNearCeiling) + "+ of the measured " +
                               gbps(best->value) + " (" + best->metric + ") in " + t.counts() + "; median sent " +
                               gbps(*median(in.gpu.samples, &GpuSample::nvlink_tx_gbps)) + ", received " +
                               gbps(*median(in.gpu.samples, &GpuSample::nvlink_rx_gbps));
  return rule.judged(t, evidence,
                     "Communication between GPUs runs at the link's ceiling: overlap it with compute (DDP bucket size, "
                     "FSDP prefetch), communicate in BF16, or lower the tensor-parallel degree");
}

WatchFinding pcie_link_degraded(const RuleInput& in) {
  const Rule rule{"pcie_link_degraded",
                  "NVML's current PCIe generation and width below the maximum while the GPU is busy "
                  "(utilisation 50 %+: links train down when idle to save power): gpubench's choice"};
  if (!in.gpu.pcie_max_gen || !in.gpu.pcie_max_width) {
    return rule.not_run("the timeline lacks the link's maximum generation and width");
  }
  std::vector<GpuSample> busy;
  for (const GpuSample& s : in.gpu.samples) {
    if (s.utilization && *s.utilization >= kUtilizationBusy) busy.push_back(s);
  }
  std::string below;
  const Tally t = tally(busy, [&](const GpuSample& s) -> std::optional<bool> {
    if (!s.pcie_gen || !s.pcie_width) return std::nullopt;
    const bool degraded = *s.pcie_gen < *in.gpu.pcie_max_gen || *s.pcie_width < *in.gpu.pcie_max_width;
    if (degraded) below = "Gen" + std::to_string(*s.pcie_gen) + " x" + std::to_string(*s.pcie_width);
    return degraded;
  });
  if (!t.enough()) {
    return rule.too_few(t, "PCIe generation and width with the GPU busy (utilisation 50 %+)");
  }
  const std::string maximum =
      "Gen" + std::to_string(*in.gpu.pcie_max_gen) + " x" + std::to_string(*in.gpu.pcie_max_width);
  const std::string evidence = "link below its maximum " + maximum + (below.empty() ? "" : " (" + below + ")") +
                               " in " + t.counts() + " taken with the GPU busy";
  return rule.judged(t, evidence,
                     "Reseat the card or its riser and check the slot's BIOS settings; compare LnkSta with LnkCap in "
                     "`lspci -vv`, and run `gpubench doctor`");
}

WatchFinding xid_or_ecc_events(const RuleInput& in) {
  const Rule rule{"xid_or_ecc_events",
                  "NVML's Xid events and ECC counters during the job: any one counts"};
  std::string evidence;
  bool xid = false, uncorrected = false;
  std::size_t count = 0;
  for (const WatchEvent& e : in.job.events) {
    if (e.gpu != in.gpu.index) continue;
    ++count;
    xid = xid || e.kind == "xid";
    uncorrected = uncorrected || e.kind == "ecc_uncorrected";
    evidence += std::string(evidence.empty() ? "" : "; ") + "at " + fixed(e.t_s, 0) + " s " +
                (e.kind == "xid" ? "Xid " : e.kind + " x") + std::to_string(e.code) +
                (e.detail.empty() ? "" : " (" + e.detail + ")");
  }
  if (count == 0 && !in.gpu.events_unwatched.empty()) {
    return rule.ended(RuleOutcome::CouldNotRun, in.gpu.events_unwatched);
  }
  if (count == 0) return rule.ended(RuleOutcome::Clear, "no Xid or ECC events during the job");
  const std::string fix =
      xid ? "Look the Xid up in NVIDIA's Xid catalogue (`gpubench doctor` reads the kernel log and names it); "
            "drain the GPU if it repeats"
      : uncorrected ? "Drain the GPU: check row remapping (nvidia-smi -q -d ROW_REMAPPER) and reset it; replace it "
                      "if remapping failed"
                    : "Corrected errors cost little now; watch the count, as a growing one precedes row remapping";
  return rule.ended(RuleOutcome::Fired, std::to_string(count) + " event(s): " + evidence, fix);
}

GpuDiagnosis diagnose_gpu(const WatchTimeline& job, const GpuTimeline& gpu, const GpuCeilings& ceilings) {
  const bool gpm = has_gpm(gpu.samples);
  GpuDiagnosis diagnosis;
  diagnosis.gpu = gpu.index;
  diagnosis.steady = steady_part(gpu, gpm);
  GpuTimeline steady = gpu;
  steady.samples.assign(gpu.samples.begin() + static_cast<std::ptrdiff_t>(diagnosis.steady.first),
                        gpu.samples.begin() + static_cast<std::ptrdiff_t>(diagnosis.steady.last));
  const RuleInput in{job, steady, ceilings};
  for (WatchFinding (*rule)(const RuleInput&) :
       {gpu_starved, tensor_cores_idle, memory_bandwidth_bound, many_small_kernels, memory_nearly_full,
        thermal_or_power_slowdown, host_transfers_at_ceiling, nvlink_near_ceiling, pcie_link_degraded,
        xid_or_ecc_events}) {
    diagnosis.findings.push_back(rule(in));
  }
  std::size_t fired = 0;
  std::string not_run;
  for (const WatchFinding& f : diagnosis.findings) {
    fired += f.outcome == RuleOutcome::Fired;
    if (f.outcome == RuleOutcome::CouldNotRun) not_run += (not_run.empty() ? "" : ", ") + f.rule;
  }
  if (fired > 0) {
    diagnosis.summary = std::to_string(fired) + (fired == 1 ? " finding" : " findings");
  } else if (gpu.samples.size() < kMinimumSamples) {
    diagnosis.summary = "no diagnosis: " + std::to_string(gpu.samples.size()) + " samples, " +
                        std::to_string(kMinimumSamples) + " or more needed (the job ran too briefly)";
  } else {
    diagnosis.summary = "no bottleneck found" + (not_run.empty() ? "" : " (could not run: " + not_run + ")");
  }
  return diagnosis;
}

std::vector<GpuDiagnosis> diagnose(const WatchTimeline& job, const std::map<int, GpuCeilings>& ceilings) {
  const GpuCeilings none;
  std::vector<GpuDiagnosis> diagnoses;
  for (const GpuTimeline& gpu : job.gpus) {
    const auto it = ceilings.find(gpu.index);
    diagnoses.push_back(diagnose_gpu(job, gpu, it == ceilings.end() ? none : it->second));
  }
  return diagnoses;
}

}  // namespace gpubench
