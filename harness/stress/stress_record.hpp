#pragma once
// What a stress run observed on one GPU: NVML telemetry once a second, GEMM throughput per window, and every
// error the checks found. The verdict rules (stress_rules.hpp) read only this, so they can be tested on
// recorded series without a GPU.
#include <cstdint>
#include <string>
#include <vector>

namespace gpubench {

struct StressSample {
  double t = 0;  // seconds since the start
  double temperature_c = -1;
  double power_w = -1;
  double sm_clock_mhz = -1;
  double memory_clock_mhz = -1;
  std::uint64_t clock_event_reasons = 0;
  double ecc_corrected = -1;    // volatile counts since the driver loaded; -1: not readable
  double ecc_uncorrected = -1;
};

struct StressWindow {
  double start_s = 0;
  double end_s = 0;
  double tflops = 0;  // verified GEMM throughput over the window
};

struct GpuStressRecord {
  int index = 0;
  std::string name;
  std::string uuid;
  double slowdown_threshold_c = -1;  // NVML's slowdown temperature; -1: not readable
  std::vector<StressSample> telemetry;
  std::vector<StressWindow> windows;
  unsigned long long gemm_runs = 0;
  unsigned long long gemm_mismatches = 0;  // GEMM outputs that differed from the reference output
  std::string first_gemm_mismatch;
  unsigned long long memtest_passes = 0;
  unsigned long long memtest_errors = 0;   // words that read back wrong
  std::string first_memtest_error;         // pattern, word index, address, expected, actual, flipped bits
  std::vector<std::string> memtest_error_samples;  // the first kMemtestLoggedErrors wrong words, described so
  std::vector<std::string> xid_events;     // critical Xid errors NVML reported during the run
  std::string worker_error;                // the load itself failed (a CUDA error): the GPU fails
};

}  // namespace gpubench
