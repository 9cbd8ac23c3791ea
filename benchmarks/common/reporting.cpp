#include "benchmarks/common/reporting.hpp"

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

void skip_benchmark(benchmark::State& state, const std::string& reason) {
  state.SetLabel(encode_outcome_label({RunState::Skipped, FailureKind::Unknown}));
  state.SkipWithError(reason.c_str());
}

void fail_benchmark(benchmark::State& state, FailureKind kind, const std::string& reason) {
  state.SetLabel(encode_outcome_label({RunState::Failed, kind}));
  state.SkipWithError(reason.c_str());
}

}  // namespace gpubench
