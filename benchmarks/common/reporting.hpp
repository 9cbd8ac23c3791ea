#pragma once
// How a benchmark reports its figure, its clocks and its failures (see benchmarks/common/benchmark_label.hpp).
#include <benchmark/benchmark.h>

#include <optional>
#include <string>

#include <vector>

#include "benchmarks/common/benchmark_failure.hpp"
#include "benchmarks/common/benchmark_label.hpp"
#include "benchmarks/common/context.hpp"
#include "benchmarks/common/failure_kind.hpp"

namespace gpubench {

// Sets the value/peak counters and the label describing them.
void report_figure(benchmark::State& state, double value, std::optional<double> peak, const FigureLabel& label);

// Reads the SM clock and the clock-event (throttle) reasons through NVML, when available.
void report_clocks(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device);
// The same for a figure that belongs to several GPUs together: the lowest SM clock among them and every
// clock-event reason any of them had, so that one throttled GPU marks the measurement.
void report_clocks_of_all(benchmark::State& state, const BenchmarkContext& context,
                          const std::vector<BenchmarkDevice>& devices);

// Marks a benchmark that cannot run here (no GPU, unsupported feature): recorded as skipped with the reason
// (benchmarks/common/run_outcome.hpp says how).
void skip_benchmark(benchmark::State& state, const std::string& reason);
// Marks a benchmark that ran and failed (CUDA error, wrong result): recorded as a failure of that kind, with the
// reason; the harness's advice follows the kind.
void fail_benchmark(benchmark::State& state, FailureKind kind, const std::string& reason);
void fail_benchmark(benchmark::State& state, const BenchmarkFailure& failure);

}  // namespace gpubench
