#include "harness/stress/stress_loads.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <thread>
#include <vector>

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/cuda_event.hpp"
#include "harness/results/statistics.hpp"
#include "harness/stress/memtest_sweep.hpp"
#include "harness/stress/verified_gemm.hpp"

namespace gpubench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kGemmsPerCheck = 8;
// The power load's tuning: a new lane is given this long to settle before the power it draws is read again; three
// lanes are as many as help (more only queue behind each other).
constexpr double kPowerSettleS = 3;
constexpr int kMaxPowerLanes = 3;
constexpr auto kPulseWarmup = std::chrono::seconds(3);

double seconds(Clock::time_point from, Clock::time_point to) { return std::chrono::duration<double>(to - from).count(); }

// Counts a batch of GEMMs (`first_run` the number of the first) and the ones whose product was wrong.
void account(const std::vector<unsigned long long>& wrong, GpuStressRecord& record, std::mutex& mutex) {
  std::lock_guard<std::mutex> lock(mutex);
  for (std::size_t g = 0; g < wrong.size(); ++g) {
    if (wrong[g] != 0 && record.gemm_mismatches++ == 0) {
      record.first_gemm_mismatch = "GEMM " + std::to_string(record.gemm_runs + g) + ": " + std::to_string(wrong[g]) +
                                   " 8-byte words of the output differ from the first result";
    }
  }
  record.gemm_runs += wrong.size();
}

// The median power NVML read since `since_s` (a second after it, past the step's ramp); -1 for fewer than 2 readings.
double power_since(const GpuStressRecord& record, double since_s, std::mutex& mutex) {
  std::vector<double> power;
  std::lock_guard<std::mutex> lock(mutex);
  for (const StressSample& s : record.telemetry) {
    if (s.t >= since_s + 1 && s.power_w >= 0) power.push_back(s.power_w);
  }
  return power.size() < 2 ? -1 : median(power);
}

// The test-only GEMM fault goes into the product of the sixth GEMM or so, once.
struct GemmFault {
  bool armed = false;
  void maybe_inject(GemmLane& lane, const GpuStressRecord& record, std::mutex& mutex) {
    if (!armed) return;
    std::lock_guard<std::mutex> lock(mutex);
    if (record.gemm_runs < 5) return;
    lane.corrupt_next_check();
    armed = false;
  }
};

}  // namespace

void run_steady_load(int device, const StressOptions& options, const LoadClock& clock, const std::atomic<bool>& stop,
                     GpuStressRecord& record, std::mutex& mutex) {
  GPUBENCH_CUDA_CHECK(cudaSetDevice(device));
  const GemmOperands operands(device);
  std::vector<std::unique_ptr<GemmLane>> lanes;
  lanes.push_back(std::make_unique<GemmLane>(operands));
  const bool memtest = options.mode == StressMode::Sustained;
  // Taken last, over all the memory left.
  std::unique_ptr<MemtestArea> area = memtest ? std::make_unique<MemtestArea>() : nullptr;
  if (area) {
    std::lock_guard<std::mutex> lock(mutex);
    record.memtest_bytes = static_cast<double>(area->bytes());
  }
  GemmFault fault{options.inject_fault == "gemm"};
  const bool tune = options.mode == StressMode::Power && record.power_limit_w > 0;
  double step_s = seconds(clock.started, Clock::now());
  {
    std::lock_guard<std::mutex> lock(mutex);
    record.load_steps.push_back({step_s, 1});
  }
  unsigned long long pass = 0;
  while (Clock::now() < clock.deadline && !stop) {
    const auto window_start = Clock::now();
    const auto window_end = std::min(clock.deadline, window_start + options.window);
    unsigned long long gemms = 0;
    while (Clock::now() < window_end && !stop) {
      fault.maybe_inject(*lanes.front(), record, mutex);
      for (auto& lane : lanes) lane->enqueue(kGemmsPerCheck);
      for (auto& lane : lanes) account(lane->finish(), record, mutex);
      gemms += lanes.size() * kGemmsPerCheck;
      const double now_s = seconds(clock.started, Clock::now());
      if (tune && lanes.size() < kMaxPowerLanes && now_s < options.warmup.count() && now_s >= step_s + kPowerSettleS) {
        const double power = power_since(record, step_s, mutex);
        if (power >= 0 && power < options.power_target * record.power_limit_w) {
          lanes.push_back(std::make_unique<GemmLane>(operands));
          step_s = now_s;
          std::lock_guard<std::mutex> lock(mutex);
          record.load_steps.push_back({step_s, static_cast<int>(lanes.size())});
        }
      }
    }
    const auto window_stop = Clock::now();
    // The window's time includes the comparisons (about 4 % of it), so this is verified throughput.
    if (gemms > 0 && window_stop > window_start) {
      std::lock_guard<std::mutex> lock(mutex);
      record.windows.push_back({seconds(clock.started, window_start), seconds(clock.started, window_stop),
                                kStressGemmFlops * gemms / seconds(window_start, window_stop) / 1e12});
    }
    if (!area) continue;
    // One memory-test pass between windows, cycling through the patterns.
    const auto pattern = static_cast<kernels::MemtestPattern>(pass % kernels::kMemtestPatterns);
    const bool inject = options.inject_fault == "memory" && pass < kernels::kMemtestPatterns;
    const kernels::MemtestErrors found = area->pass(pattern, 0x5EED0000ull + pass, inject, lanes.front()->stream());
    std::lock_guard<std::mutex> lock(mutex);
    ++record.memtest_passes;
    record.memtest_errors += found.count;
    for (const std::string& error : area->describe(found, pattern)) {
      if (record.memtest_error_samples.size() < kernels::kMemtestLoggedErrors) record.memtest_error_samples.push_back(error);
    }
    if (!record.memtest_error_samples.empty()) record.first_memtest_error = record.memtest_error_samples.front();
    ++pass;
  }
}

void run_pulse_load(int device, const StressOptions& options, const LoadClock& clock, const std::atomic<bool>& stop,
                    GpuStressRecord& record, std::mutex& mutex) {
  GPUBENCH_CUDA_CHECK(cudaSetDevice(device));
  const GemmOperands operands(device);
  GemmLane lane(operands);
  GemmFault fault{options.inject_fault == "gemm"};
  // The warm-up at full load, in one-second windows: the steady throughput the bursts are held against, and how
  // long one GEMM takes, to size a burst to half a period.
  const auto warm_end = std::min(clock.deadline, Clock::now() + kPulseWarmup);
  std::vector<double> warm;
  while (Clock::now() < warm_end && !stop) {
    const auto window_start = Clock::now();
    unsigned long long gemms = 0;
    while (Clock::now() < std::min(warm_end, window_start + std::chrono::seconds(1)) && !stop) {
      fault.maybe_inject(lane, record, mutex);
      lane.enqueue(kGemmsPerCheck);
      account(lane.finish(), record, mutex);
      gemms += kGemmsPerCheck;
    }
    const double tflops = kStressGemmFlops * gemms / seconds(window_start, Clock::now()) / 1e12;
    warm.push_back(tflops);
    std::lock_guard<std::mutex> lock(mutex);
    record.windows.push_back({seconds(clock.started, window_start), seconds(clock.started, Clock::now()), tflops});
  }
  if (warm.empty()) return;
  const double gemm_ms = kStressGemmFlops / (median(warm) * 1e12) * 1e3;
  const double share_s = seconds(Clock::now(), clock.deadline) / static_cast<double>(kPulsePeriodsMs.size());
  CudaEvent burst_start, burst_stop;
  for (double period_ms : kPulsePeriodsMs) {
    const auto phase_end = std::min(clock.deadline, Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                                        std::chrono::duration<double>(share_s)));
    const int gemms = std::clamp(static_cast<int>(std::lround(period_ms / 2 / gemm_ms)), 1, GemmLane::kMaxQueued);
    const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(period_ms));
    while (Clock::now() < phase_end && !stop) {
      const auto cycle_start = Clock::now();
      fault.maybe_inject(lane, record, mutex);
      burst_start.record(lane.stream());
      lane.enqueue(gemms);
      burst_stop.record(lane.stream());
      account(lane.finish(), record, mutex);
      const double burst_s = burst_stop.seconds_since(burst_start);
      {
        std::lock_guard<std::mutex> lock(mutex);
        record.bursts.push_back({period_ms, seconds(clock.started, cycle_start), kStressGemmFlops * gemms / burst_s / 1e12});
      }
      std::this_thread::sleep_until(std::min(phase_end, cycle_start + period));  // idle for the rest of the period
    }
  }
}

}  // namespace gpubench
