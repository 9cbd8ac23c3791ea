#pragma once
// Rounds of work that waits behind a closed gate (copy_gate.hpp) on every lane taking part (a lane: a stream
// timed from the gate's release), all released at once by the host: the time the host takes to enqueue is
// never timed, and the lanes (both directions of a copy, or several GPUs) start together. A round lasts until
// its slowest lane is done.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "benchmarks/common/benchmark_failure.hpp"
#include "benchmarks/common/copy_gate.hpp"
#include "benchmarks/common/timed_loop.hpp"

namespace gpubench {

struct RoundTimes {
  std::vector<double> lane_seconds;  // per lane, summed over the timed rounds
  double round_seconds = 0;          // summed over the timed rounds
};

class GatedRounds {
 public:
  // `enqueue` puts one round behind the closed gate on every lane, without waiting for the GPU; `lane_seconds`
  // waits for the round and returns each lane's seconds from the gate's release.
  GatedRounds(CopyGate& gate, std::function<void()> enqueue, std::function<std::vector<double>()> lane_seconds)
      : gate_(gate), enqueue_(std::move(enqueue)), lane_seconds_(std::move(lane_seconds)) {}

  // One round, untimed (a warm-up); returns each lane's seconds.
  std::vector<double> run() const {
    enqueue_();
    gate_.open();
    return lane_seconds_();
  }

  // One round per iteration of Google Benchmark's loop; an iteration's time is its round's slowest lane.
  RoundTimes time(benchmark::State& state) const {
    RoundTimes times;
    run_timed_iterations(
        state,
        [&] {
          const std::vector<double> seconds = run();
          times.lane_seconds.resize(seconds.size(), 0.0);
          for (std::size_t i = 0; i < seconds.size(); ++i) times.lane_seconds[i] += seconds[i];
          return *std::max_element(seconds.begin(), seconds.end());
        },
        [&](double slowest) { times.round_seconds += slowest; });
    return times;
  }

 private:
  CopyGate& gate_;
  std::function<void()> enqueue_;
  std::function<std::vector<double>()> lane_seconds_;
};

// The failure of rounds whose gate gave up waiting before the host opened it (copy_gate.hpp says how that
// happens): what was timed behind it started early.
inline BenchmarkFailure gate_timeout_failure() {
  return BenchmarkFailure(FailureKind::GateTimeout,
                          "the copy gate timed out before the host opened it; the timing is void");
}

}  // namespace gpubench
