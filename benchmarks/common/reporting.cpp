#include "benchmarks/common/reporting.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "benchmarks/common/nvml_library.hpp"
#include "benchmarks/common/run_outcome.hpp"

namespace gpubench {

void report_figure(benchmark::State& state, double value, std::optional<double> peak, const FigureLabel& label) {
  state.counters["value"] = value;
  if (peak && *peak > 0) state.counters["peak"] = *peak;
  state.SetLabel(encode_label(label));
}

void report_clocks(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device) {
  if (context.nvml == nullptr || device.nvml == nullptr) return;
  const NvmlLibrary& nvml = *context.nvml;
  unsigned int sm_mhz = 0;
  if (nvml.nvmlDeviceGetClockInfo_ && nvml.nvmlDeviceGetClockInfo_(device.nvml, NVML_CLOCK_SM, &sm_mhz) == NVML_SUCCESS) {
    state.counters["sm_clock_mhz"] = sm_mhz;
  }
  unsigned long long reasons = 0;
  if (nvml.nvmlDeviceGetCurrentClocksEventReasons_ &&
      nvml.nvmlDeviceGetCurrentClocksEventReasons_(device.nvml, &reasons) == NVML_SUCCESS) {
    state.counters["clock_event_reasons"] = static_cast<double>(reasons);
  }
}

void report_clocks_of_all(benchmark::State& state, const BenchmarkContext& context,
                          const std::vector<BenchmarkDevice>& devices) {
  std::optional<double> lowest_clock;
  std::uint64_t reasons = 0;
  bool any_reasons = false;
  for (const BenchmarkDevice& device : devices) {
    state.counters.erase("sm_clock_mhz");
    state.counters.erase("clock_event_reasons");
    report_clocks(state, context, device);
    if (const auto it = state.counters.find("sm_clock_mhz"); it != state.counters.end()) {
      lowest_clock = std::min(lowest_clock.value_or(it->second.value), static_cast<double>(it->second.value));
    }
    if (const auto it = state.counters.find("clock_event_reasons"); it != state.counters.end()) {
      reasons |= static_cast<std::uint64_t>(it->second.value);
      any_reasons = true;
    }
  }
  state.counters.erase("sm_clock_mhz");
  state.counters.erase("clock_event_reasons");
  if (lowest_clock) state.counters["sm_clock_mhz"] = *lowest_clock;
  if (any_reasons) state.counters["clock_event_reasons"] = static_cast<double>(reasons);
}

void skip_benchmark(benchmark::State& state, const std::string& reason) {
  state.SetLabel(encode_outcome_label({RunState::Skipped, FailureKind::Unknown}));
  state.SkipWithError(reason.c_str());
}

void fail_benchmark(benchmark::State& state, FailureKind kind, const std::string& reason) {
  state.SetLabel(encode_outcome_label({RunState::Failed, kind}));
  state.SkipWithError(reason.c_str());
}

void fail_benchmark(benchmark::State& state, const BenchmarkFailure& failure) {
  fail_benchmark(state, failure.kind(), failure.what());
}

}  // namespace gpubench
