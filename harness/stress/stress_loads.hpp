#pragma once
// What one GPU's worker thread runs for each stress mode, until the deadline or a stop, adding what it sees to
// its record under the run's mutex. Times in the record count from `started`, the run's start, as the
// telemetry's do.
#include <atomic>
#include <chrono>
#include <mutex>

#include "harness/stress/stress_record.hpp"
#include "harness/stress/stress_run.hpp"

namespace gpubench {

struct LoadClock {
  std::chrono::steady_clock::time_point started;
  std::chrono::steady_clock::time_point deadline;
};

// Sustained and power: windows of verified GEMMs; the sustained load runs a memory-test pass between windows,
// the power load adds GEMM lanes in its warm-up until the GPU draws its power target.
void run_steady_load(int device, const StressOptions& options, const LoadClock& clock, const std::atomic<bool>& stop,
                     GpuStressRecord& record, std::mutex& mutex);

// Pulse: a few seconds at full load for the steady throughput, then each period of kPulsePeriodsMs in turn, an
// equal share of the time left each: GEMMs for half the period, idle for the other half.
void run_pulse_load(int device, const StressOptions& options, const LoadClock& clock, const std::atomic<bool>& stop,
                    GpuStressRecord& record, std::mutex& mutex);

}  // namespace gpubench
