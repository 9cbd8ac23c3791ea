#pragma once
// Google Benchmark's loop with manual time, written once: each iteration's seconds, as the family measured them
// (CUDA events, or the host's clock for host-side costs), become that iteration's time.
#include <benchmark/benchmark.h>

#include "benchmarks/common/iteration_times.hpp"

namespace gpubench {

// Runs the timed loop; `timed_iteration` does one iteration's work and returns its seconds, which are then
// handed to `keep`.
template <class TimedIteration, class Keep>
void run_timed_iterations(benchmark::State& state, TimedIteration&& timed_iteration, Keep&& keep) {
  for (auto _ : state) {
    const double seconds = timed_iteration();
    state.SetIterationTime(seconds);
    keep(seconds);
  }
}

// The timed loop, for a family that keeps what it needs of each iteration itself (the parts of an iteration
// that make several figures).
template <class TimedIteration>
void run_timed_iterations(benchmark::State& state, TimedIteration&& timed_iteration) {
  run_timed_iterations(state, timed_iteration, [](double) {});
}

// The timed loop; returns the seconds of all iterations together, for a figure that is a mean.
template <class TimedIteration>
double total_seconds_of_iterations(benchmark::State& state, TimedIteration&& timed_iteration) {
  double total = 0;
  run_timed_iterations(state, timed_iteration, [&](double seconds) { total += seconds; });
  return total;
}

// The timed loop; returns every iteration's seconds, for a figure that is the median (iteration_times.hpp).
template <class TimedIteration>
IterationTimes seconds_of_each_iteration(benchmark::State& state, TimedIteration&& timed_iteration) {
  IterationTimes times;
  run_timed_iterations(state, timed_iteration, [&](double seconds) { times.add(seconds); });
  return times;
}

}  // namespace gpubench
