#include "harness/stress/stress_rules.hpp"

#include <nvml.h>

#include <algorithm>
#include <cstdio>

#include "harness/results/statistics.hpp"
#include "harness/stress/clock_collapse_rules.hpp"

namespace gpubench {
namespace {

std::string format(const char* pattern, double a, double b = 0, double c = 0) {
  char text[256];
  std::snprintf(text, sizeof text, pattern, a, b, c);
  return text;
}

void add(GpuStressVerdict& v, const char* check, const char* severity, std::string message) {
  v.findings.push_back({check, severity, std::move(message)});
}

void judge_interconnect(const InterconnectRecord& links, GpuStressVerdict& v) {
  if (!links.ran) return;
  if (!links.error.empty()) add(v, "interconnect.failed", "fail", "a copy under load failed: " + links.error);
  if (links.p2p_mismatches > 0) {
    add(v, "corruption.p2p", "fail",
        std::to_string(links.p2p_mismatches) + " of " + std::to_string(links.p2p_copies) + " copies from GPU " +
            std::to_string(links.p2p_peer) + " over P2P arrived different from what was sent: check the NVLink or PCIe path");
  }
  if (links.pcie_mismatches > 0) {
    add(v, "corruption.pcie", "fail",
        std::to_string(links.pcie_mismatches) + " of " + std::to_string(links.pcie_copies) +
            " copies between host and GPU arrived different from what was sent: check the PCIe link");
  }
  if (!links.p2p_skipped.empty()) add(v, "interconnect.p2p_skipped", "info", "no P2P traffic: " + links.p2p_skipped);
  if (links.seconds > 0) {
    add(v, "interconnect.traffic", "info",
        format("%.0f GB over P2P and %.0f GB over PCIe in %.0f s, every copy checked", links.p2p_bytes / 1e9,
               links.pcie_bytes / 1e9, links.seconds));
  }
}

void judge_errors(const GpuStressRecord& gpu, GpuStressVerdict& v) {
  if (!gpu.worker_error.empty()) {
    add(v, "load.failed", "fail", "the load stopped: " + gpu.worker_error);
  } else if (gpu.gemm_runs == 0) {
    add(v, "load.none", "fail",
        "no GEMM ran to completion (the run was stopped or ended during setup): nothing was tested under load; "
        "run it again for longer");
  }
  if (gpu.gemm_mismatches > 0) {
    add(v, "corruption.gemm", "fail",
        std::to_string(gpu.gemm_mismatches) + " of " + std::to_string(gpu.gemm_runs) +
            " GEMM results differed from the reference (silent data corruption): " + gpu.first_gemm_mismatch);
  }
  if (gpu.memtest_errors > 0) {
    add(v, "corruption.memory", "fail",
        std::to_string(gpu.memtest_errors) + " memory words read back wrong over " + std::to_string(gpu.memtest_passes) +
            " passes; first: " + gpu.first_memtest_error);
  }
  judge_interconnect(gpu.interconnect, v);
  for (const std::string& xid : gpu.xid_events) add(v, "xid", "fail", "critical Xid event: " + xid);
  if (gpu.telemetry.size() >= 2) {
    const StressSample& first = gpu.telemetry.front();
    const StressSample& last = gpu.telemetry.back();
    if (first.ecc_uncorrected >= 0 && last.ecc_uncorrected > first.ecc_uncorrected) {
      add(v, "ecc.uncorrectable", "fail", format("%.0f new uncorrectable ECC errors during the run", last.ecc_uncorrected - first.ecc_uncorrected));
    }
    if (first.ecc_corrected >= 0 && last.ecc_corrected > first.ecc_corrected) {
      add(v, "ecc.correctable", "warn", format("%.0f new correctable ECC errors during the run", last.ecc_corrected - first.ecc_corrected));
    }
  }
}

void judge_telemetry(const GpuStressRecord& gpu, const StressLimits& limits, GpuStressVerdict& v) {
  std::uint64_t reasons = 0;
  for (const StressSample& s : gpu.telemetry) {
    reasons |= s.clock_event_reasons;
    v.max_temperature_c = std::max(v.max_temperature_c, s.temperature_c);
    v.max_power_w = std::max(v.max_power_w, s.power_w);
  }
  if (gpu.slowdown_threshold_c > 0 && v.max_temperature_c >= gpu.slowdown_threshold_c) {
    add(v, "temperature.slowdown", "fail",
        format("reached %.0f C, at or past its slowdown threshold of %.0f C: check airflow and fans", v.max_temperature_c, gpu.slowdown_threshold_c));
  } else if (v.max_temperature_c >= limits.max_temperature_c) {
    add(v, "temperature.maximum", "fail",
        format("reached %.0f C, at or past the configured maximum of %.0f C: check airflow and fans", v.max_temperature_c, limits.max_temperature_c));
  }
  if (reasons & nvmlClocksThrottleReasonHwSlowdown) {
    add(v, "throttle.hw_slowdown", "fail", "hardware slowdown throttled the clocks (power supply, or an over-temperature signal)");
  }
  if (reasons & nvmlClocksThrottleReasonHwThermalSlowdown) {
    add(v, "throttle.hw_thermal", "fail", "hardware thermal slowdown throttled the clocks: the GPU overheated");
  }
  if (reasons & nvmlClocksThrottleReasonHwPowerBrakeSlowdown) {
    add(v, "throttle.power_brake", "fail", "the power brake throttled the clocks: the node's power supply signalled a limit");
  }
  if (reasons & nvmlClocksEventReasonSwThermalSlowdown) {
    add(v, "throttle.sw_thermal", "warn", "software thermal slowdown lowered the clocks: the GPU ran hot");
  }
  if (reasons & nvmlClocksEventReasonSwPowerCap) {
    add(v, "throttle.sw_power_cap", "info", "ran at its power limit (expected under a full Tensor Core load)");
  }
}

void judge_drift(const GpuStressRecord& gpu, const StressLimits& limits, GpuStressVerdict& v) {
  const auto settled = std::find_if(gpu.windows.begin(), gpu.windows.end(),
                                    [&](const StressWindow& w) { return w.start_s >= limits.warmup_s; });
  if (settled == gpu.windows.end() || settled + 1 == gpu.windows.end()) return;
  const double first = settled->tflops;
  const double last = gpu.windows.back().tflops;
  if (first > 0 && (first - last) / first > limits.drift) {
    add(v, "performance.drift", "fail",
        format("throughput fell %.1f %% from the first window after the warm-up (%.1f TFLOP/s) to the last (%.1f): heat "
               "or power is pulling it down",
               100 * (first - last) / first, first, last));
  }
}

}  // namespace

std::vector<GpuStressVerdict> judge_stress(const std::vector<GpuStressRecord>& gpus, const StressLimits& limits) {
  std::vector<GpuStressVerdict> verdicts;
  double best = 0;
  for (const GpuStressRecord& gpu : gpus) {
    GpuStressVerdict v;
    v.index = gpu.index;
    std::vector<double> rates;
    for (const StressWindow& w : gpu.windows) rates.push_back(w.tflops);
    if (!rates.empty()) v.median_tflops = median(rates);
    best = std::max(best, v.median_tflops);
    judge_errors(gpu, v);
    judge_telemetry(gpu, limits, v);
    v.mode = gpu.mode;
    if (gpu.mode != StressMode::Pulse) {
      judge_drift(gpu, limits, v);
      judge_clock_collapse(gpu, limits, v.findings);
    }
    if (gpu.mode == StressMode::Power) v.power = judge_power_target(gpu, limits, v.findings);
    if (gpu.mode == StressMode::Pulse) v.pulse = judge_pulse(gpu, kPulsePeriodsMs, limits, v.findings);
    verdicts.push_back(std::move(v));
  }
  for (GpuStressVerdict& v : verdicts) {
    if (best > 0 && v.median_tflops > 0 && (best - v.median_tflops) / best > limits.sibling) {
      add(v, "performance.slow_sibling", "fail",
          format("%.1f TFLOP/s, %.1f %% slower than the best GPU of this node (%.1f)", v.median_tflops,
                 100 * (best - v.median_tflops) / best, best));
    }
    for (const StressFinding& f : v.findings) v.verdict = worst_of({v.verdict, grade_of_stress_finding(f)});
  }
  return verdicts;
}

Grade grade_of_stress_finding(const StressFinding& finding) {
  return finding.severity == "fail" ? Grade::Fail : finding.severity == "warn" ? Grade::Warn : Grade::Pass;
}

Grade node_verdict(const std::vector<GpuStressVerdict>& verdicts) {
  std::vector<Grade> grades;
  for (const GpuStressVerdict& v : verdicts) grades.push_back(v.verdict);
  return worst_of(grades);
}

}  // namespace gpubench
