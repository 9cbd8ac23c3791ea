#include "harness/stress/stress_document.hpp"

#include "harness/results/clock_events.hpp"
#include "harness/results/failure_advice.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

json telemetry_series(const std::vector<StressSample>& samples) {
  json rows = json::array();
  for (const StressSample& s : samples) {
    rows.push_back({s.t, s.temperature_c, s.power_w, s.sm_clock_mhz, s.memory_clock_mhz, s.clock_event_reasons,
                    s.ecc_corrected, s.ecc_uncorrected});
  }
  return {{"columns", {"t_s", "temperature_c", "power_w", "sm_clock_mhz", "memory_clock_mhz", "clock_event_reasons",
                       "ecc_corrected", "ecc_uncorrected"}},
          {"samples", rows}};
}

}  // namespace

void add_stress_to_document(const std::vector<GpuStressRecord>& gpus, const std::vector<GpuStressVerdict>& verdicts,
                            const StressLimits& limits, double duration_s, ResultsDocument& document) {
  json per_gpu = json::array();
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    const GpuStressRecord& gpu = gpus[g];
    const GpuStressVerdict& v = verdicts[g];
    json windows = json::array();
    std::vector<double> rates;
    for (const StressWindow& w : gpu.windows) {
      windows.push_back({{"start_s", w.start_s}, {"end_s", w.end_s}, {"tflops", w.tflops}});
      rates.push_back(w.tflops);
    }
    json findings = json::array();
    for (const StressFinding& f : v.findings) findings.push_back({{"check", f.check}, {"severity", f.severity}, {"message", f.message}});
    per_gpu.push_back({{"index", gpu.index},
                       {"name", gpu.name},
                       {"verdict", to_string(v.verdict)},
                       {"findings", findings},
                       {"median_tflops", v.median_tflops},
                       {"max_temperature_c", v.max_temperature_c},
                       {"max_power_w", v.max_power_w},
                       {"slowdown_threshold_c", gpu.slowdown_threshold_c},
                       {"gemm_runs", gpu.gemm_runs},
                       {"gemm_mismatches", gpu.gemm_mismatches},
                       {"first_gemm_mismatch", gpu.first_gemm_mismatch},
                       {"memtest_passes", gpu.memtest_passes},
                       {"memtest_errors", gpu.memtest_errors},
                       {"first_memtest_error", gpu.first_memtest_error},
                       {"memtest_error_samples", gpu.memtest_error_samples},
                       {"xid_events", gpu.xid_events},
                       {"worker_error", gpu.worker_error},
                       {"windows", windows},
                       {"telemetry", telemetry_series(gpu.telemetry)}});
    const std::string benchmark = "stress/gemm_bf16/8192/gpu" + std::to_string(gpu.index);
    if (!rates.empty()) {
      Metric m;
      m.id = benchmark + "/tflops";
      m.benchmark = benchmark;
      m.family = "stress";
      m.device = gpu.index;
      m.unit = "TFLOP/s";
      m.better = Better::Higher;
      m.samples = rates;
      m.statistics = summarize(rates);
      m.value = m.statistics.median;
      std::uint64_t reasons = 0;
      for (const StressSample& s : gpu.telemetry) reasons |= s.clock_event_reasons;
      m.clock_event_reasons = reasons;
      m.throttled = is_throttling(reasons);
      document.metrics.push_back(m);
    }
    for (const StressFinding& f : v.findings) {
      if (f.severity != "fail") continue;
      document.failures.push_back({"stress/gpu" + std::to_string(gpu.index), "stress", FailureKind::StressFinding,
                                   f.check + ": " + f.message, advice_for_failure(FailureKind::StressFinding)});
    }
  }
  document.stress = {{"duration_s", duration_s},
                     {"limits", {{"max_temperature_c", limits.max_temperature_c}, {"drift", limits.drift}, {"sibling", limits.sibling},
                                 {"warmup_s", limits.warmup_s}}},
                     {"load", "BF16 GEMM 8192^3 (cuBLAS, FP32 accumulate), each result compared with the first; memory "
                              "test patterns walking ones, walking zeros, random, address-in-address and moving inversions between "
                              "windows"},
                     {"node_verdict", to_string(node_verdict(verdicts))},
                     {"gpus", per_gpu}};
}

}  // namespace gpubench
