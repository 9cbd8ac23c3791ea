#include "harness/stress/stress_document.hpp"

#include <algorithm>

#include "harness/results/clock_events.hpp"
#include "harness/results/failure_advice.hpp"
#include "harness/stress/bounded_series.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

// The lowest, mean and highest of a column's readable values (NVML's -1 marks one it could not read) in a bucket;
// -1 for each when none was readable.
void add_spread(json& row, const std::vector<StressSample>& samples, const Bucket& bucket,
                double StressSample::*column) {
  double low = -1, high = -1, sum = 0;
  std::size_t readable = 0;
  for (std::size_t i = bucket.begin; i < bucket.end; ++i) {
    const double value = samples[i].*column;
    if (value < 0) continue;
    low = readable == 0 ? value : std::min(low, value);
    high = readable == 0 ? value : std::max(high, value);
    sum += value;
    ++readable;
  }
  row.push_back(readable == 0 ? -1.0 : sum / static_cast<double>(readable));
  row.push_back(low);
  row.push_back(high);
}

// The last readable value of a column in a bucket (the ECC counts only grow), -1 when none was readable.
double last_readable(const std::vector<StressSample>& samples, const Bucket& bucket, double StressSample::*column) {
  for (std::size_t i = bucket.end; i > bucket.begin; --i) {
    if (samples[i - 1].*column >= 0) return samples[i - 1].*column;
  }
  return -1;
}

// The readings before the recent ones, a row per bucket (bounded_series.hpp): its start, length and number of
// readings; each quantity's mean under the reading's column name, its lowest and highest beside it; every
// clock-event reason seen; the ECC counts at its end.
json telemetry_buckets(const std::vector<StressSample>& samples, const std::vector<Bucket>& buckets) {
  json rows = json::array();
  for (const Bucket& bucket : buckets) {
    json row = {bucket.start_s, bucket.span_s, bucket.end - bucket.begin};
    for (double StressSample::*column : {&StressSample::temperature_c, &StressSample::power_w,
                                         &StressSample::sm_clock_mhz, &StressSample::memory_clock_mhz}) {
      add_spread(row, samples, bucket, column);
    }
    std::uint64_t reasons = 0;
    for (std::size_t i = bucket.begin; i < bucket.end; ++i) reasons |= samples[i].clock_event_reasons;
    row.push_back(reasons);
    row.push_back(last_readable(samples, bucket, &StressSample::ecc_corrected));
    row.push_back(last_readable(samples, bucket, &StressSample::ecc_uncorrected));
    rows.push_back(std::move(row));
  }
  return {{"columns", {"t_s", "span_s", "readings", "temperature_c", "temperature_c_min", "temperature_c_max",
                       "power_w", "power_w_min", "power_w_max", "sm_clock_mhz", "sm_clock_mhz_min", "sm_clock_mhz_max",
                       "memory_clock_mhz", "memory_clock_mhz_min", "memory_clock_mhz_max", "clock_event_reasons",
                       "ecc_corrected", "ecc_uncorrected"}},
          {"samples", rows}};
}

json telemetry_series(const std::vector<StressSample>& samples) {
  std::vector<double> times;
  for (const StressSample& s : samples) times.push_back(s.t);
  const BoundedLayout layout = bounded_layout(times);
  json rows = json::array();
  for (std::size_t i = layout.first_recent; i < samples.size(); ++i) {
    const StressSample& s = samples[i];
    rows.push_back({s.t, s.temperature_c, s.power_w, s.sm_clock_mhz, s.memory_clock_mhz, s.clock_event_reasons,
                    s.ecc_corrected, s.ecc_uncorrected});
  }
  json series = {{"columns", {"t_s", "temperature_c", "power_w", "sm_clock_mhz", "memory_clock_mhz",
                              "clock_event_reasons", "ecc_corrected", "ecc_uncorrected"}},
                 {"samples", rows}};
  if (!layout.buckets.empty()) series["buckets"] = telemetry_buckets(samples, layout.buckets);
  return series;
}

// The windows as the document keeps them (bounded_series.hpp): the earlier ones a window per bucket, from the first
// one's start to the last one's end, with their throughput (weighted by each window's length), how many they were
// and the lowest and highest of them.
json bounded_windows(const std::vector<StressWindow>& windows) {
  std::vector<double> starts;
  for (const StressWindow& w : windows) starts.push_back(w.start_s);
  const BoundedLayout layout = bounded_layout(starts);
  json kept = json::array();
  for (const Bucket& bucket : layout.buckets) {
    double work = 0, seconds = 0, sum = 0;
    double low = windows[bucket.begin].tflops, high = low;
    for (std::size_t i = bucket.begin; i < bucket.end; ++i) {
      const StressWindow& w = windows[i];
      work += w.tflops * std::max(0.0, w.end_s - w.start_s);
      seconds += std::max(0.0, w.end_s - w.start_s);
      sum += w.tflops;
      low = std::min(low, w.tflops);
      high = std::max(high, w.tflops);
    }
    const std::size_t count = bucket.end - bucket.begin;
    kept.push_back({{"start_s", windows[bucket.begin].start_s}, {"end_s", windows[bucket.end - 1].end_s},
                    {"tflops", seconds > 0 ? work / seconds : sum / static_cast<double>(count)}, {"windows", count},
                    {"min_tflops", low}, {"max_tflops", high}});
  }
  for (std::size_t i = layout.first_recent; i < windows.size(); ++i) {
    kept.push_back({{"start_s", windows[i].start_s}, {"end_s", windows[i].end_s}, {"tflops", windows[i].tflops}});
  }
  return kept;
}

// What each mode ran, for the section's "load".
std::string load_text(StressMode mode) {
  switch (mode) {
    case StressMode::Sustained:
      return "BF16 GEMM 8192^3 (cuBLAS, FP32 accumulate), each result compared with the first; memory test patterns "
             "walking ones, walking zeros, random, address-in-address and moving inversions between windows, over all "
             "free memory less a 512 MiB reserve";
    case StressMode::Power:
      return "BF16 GEMM 8192^3 (cuBLAS, FP32 accumulate), each result compared with the first, on 1 to 3 streams at "
             "once (a stream added in the warm-up while the GPU draws under its power target); judged on the median "
             "power after the warm-up against NVML's enforced power limit";
    case StressMode::Pulse:
      return "BF16 GEMM 8192^3 (cuBLAS, FP32 accumulate), each result compared with the first: 3 s at full load, then "
             "full load and idle alternating (50 % duty) at 10 ms, 100 ms and 1 s periods, an equal share of the run "
             "each; every burst timed on the GPU against the full-load throughput";
  }
  return "";
}

json interconnect_json(const InterconnectRecord& links) {
  return {{"p2p_peer", links.p2p_peer},         {"p2p_skipped", links.p2p_skipped},   {"p2p_copies", links.p2p_copies},
          {"p2p_mismatches", links.p2p_mismatches}, {"p2p_bytes", links.p2p_bytes},   {"pcie_copies", links.pcie_copies},
          {"pcie_mismatches", links.pcie_mismatches}, {"pcie_bytes", links.pcie_bytes}, {"seconds", links.seconds},
          {"error", links.error}};
}

json power_json(const GpuStressRecord& gpu, const PowerTargetResult& power, const StressLimits& limits) {
  json steps = json::array();
  for (const PowerLoadStep& step : gpu.load_steps) steps.push_back({{"t_s", step.t}, {"lanes", step.lanes}});
  return {{"judged", power.judged},
          {"reached", power.reached},
          {"target_fraction", limits.power_target},
          {"limit_w", power.limit_w},
          {"median_w", power.median_w},
          {"median_sm_clock_mhz", power.median_sm_clock_mhz},
          {"max_sm_clock_mhz", gpu.max_sm_clock_mhz},
          {"max_temperature_c", power.max_temperature_c},
          {"clock_event_reasons", clock_event_names(power.clock_event_reasons)},
          {"load_steps", steps}};
}

json pulse_json(const PulseResult& pulse) {
  json periods = json::array();
  for (const PulsePeriodResult& p : pulse.periods) {
    periods.push_back({{"period_ms", p.period_ms}, {"bursts", p.bursts}, {"collapsed", p.collapsed},
                       {"median_tflops", p.median_tflops}, {"slowest_tflops", p.slowest_tflops}});
  }
  return {{"steady_tflops", pulse.steady_tflops}, {"periods", periods}};
}

// A figure of the stress run, throttled when any telemetry reading was.
Metric stress_metric(const GpuStressRecord& gpu, const std::string& benchmark, const std::string& figure,
                     const std::string& unit, const std::vector<double>& samples) {
  Metric m;
  m.id = benchmark + "/" + figure;
  m.benchmark = benchmark;
  m.family = "stress";
  m.device = gpu.index;
  m.unit = unit;
  m.better = Better::Higher;
  m.samples = samples;
  m.statistics = summarize(samples);
  m.value = m.statistics.median;
  std::uint64_t reasons = 0;
  for (const StressSample& s : gpu.telemetry) reasons |= s.clock_event_reasons;
  m.clock_event_reasons = reasons;
  m.throttled = is_throttling(reasons);
  return m;
}

// "10ms", "1s": a pulse period as an id segment.
std::string period_segment(double period_ms) {
  const long long ms = static_cast<long long>(period_ms + 0.5);
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms";
}

}  // namespace

void add_stress_to_document(const std::vector<GpuStressRecord>& gpus, const std::vector<GpuStressVerdict>& verdicts,
                            const StressLimits& limits, double duration_s, ResultsDocument& document) {
  json per_gpu = json::array();
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    const GpuStressRecord& gpu = gpus[g];
    const GpuStressVerdict& v = verdicts[g];
    // The throughput figure's samples are the windows as the document keeps them, so that the two agree.
    const json windows = bounded_windows(gpu.windows);
    std::vector<double> rates;
    for (const json& w : windows) rates.push_back(w.at("tflops").get<double>());
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
                       {"power_limit_w", gpu.power_limit_w},
                       {"memtest_bytes", gpu.memtest_bytes},
                       {"windows", windows},
                       {"telemetry", telemetry_series(gpu.telemetry)}});
    if (gpu.interconnect.ran) per_gpu.back()["interconnect"] = interconnect_json(gpu.interconnect);
    if (gpu.mode == StressMode::Power) per_gpu.back()["power"] = power_json(gpu, v.power, limits);
    if (gpu.mode == StressMode::Pulse) per_gpu.back()["pulse"] = pulse_json(v.pulse);
    // The sustained load's figure keeps the id it always had; the power load's is its own. The pulse load's
    // windows are only its warm-up: its figures are its bursts, per period.
    const std::string prefix = gpu.mode == StressMode::Sustained ? "stress" : std::string("stress/") + stress_mode_name(gpu.mode);
    const std::string gpu_segment = "gpu" + std::to_string(gpu.index);
    const std::string benchmark = prefix + "/gemm_bf16/8192/" + gpu_segment;
    if (!rates.empty() && gpu.mode != StressMode::Pulse) document.metrics.push_back(stress_metric(gpu, benchmark, "tflops", "TFLOP/s", rates));
    // What power the load reached, as a share of the limit, so that nightly history and Prometheus can follow it.
    // Its samples are the power readings the verdict judged (after the warm-up, the last seconds left out), those
    // of a run longer than a day as bounded_series.hpp keeps them.
    if (gpu.mode == StressMode::Power && v.power.judged && v.power.limit_w > 0) {
      std::vector<double> times, shares;
      for (const StressSample& s : steady_samples(gpu.telemetry, limits)) {
        if (s.power_w < 0) continue;
        times.push_back(s.t);
        shares.push_back(100 * s.power_w / v.power.limit_w);
      }
      document.metrics.push_back(stress_metric(gpu, prefix + "/power_target/" + gpu_segment, "share_of_power_limit",
                                               "%", bounded_values(times, shares)));
    }
    // Each pulse period's verified bursts: a figure per period, its samples the bursts (bounded as above).
    if (gpu.mode == StressMode::Pulse) {
      for (const PulsePeriodResult& period : v.pulse.periods) {
        std::vector<double> times, bursts;
        for (const PulseBurst& b : gpu.bursts) {
          if (b.period_ms != period.period_ms) continue;
          times.push_back(b.t);
          bursts.push_back(b.tflops);
        }
        if (bursts.empty()) continue;
        document.metrics.push_back(stress_metric(gpu, prefix + "/gemm_bf16/8192/" + period_segment(period.period_ms) + "/" + gpu_segment,
                                                 "burst_tflops", "TFLOP/s", bounded_values(times, bursts)));
      }
    }
    for (const StressFinding& f : v.findings) {
      if (f.severity != "fail") continue;
      document.failures.push_back({prefix + "/gpu" + std::to_string(gpu.index), "stress", FailureKind::StressFinding,
                                   f.check + ": " + f.message, advice_for_failure(FailureKind::StressFinding)});
    }
  }
  const StressMode mode = gpus.empty() ? StressMode::Sustained : gpus.front().mode;
  json section = {{"mode", stress_mode_name(mode)},
                  {"duration_s", duration_s},
                  {"limits", {{"max_temperature_c", limits.max_temperature_c}, {"drift", limits.drift}, {"sibling", limits.sibling},
                              {"warmup_s", limits.warmup_s}, {"power_target", limits.power_target},
                              {"full_clock", limits.full_clock}, {"collapse", limits.collapse},
                              {"collapse_share", limits.collapse_share}, {"tail_s", limits.tail_s}}},
                  {"load", load_text(mode)},
                  {"node_verdict", to_string(node_verdict(verdicts))},
                  {"gpus", per_gpu}};
  if (document.stress.is_null()) {
    document.stress = std::move(section);
  } else {
    document.stress["phases"].push_back(std::move(section));
  }
}

}  // namespace gpubench
