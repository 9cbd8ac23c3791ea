#pragma once
// What a stress run observed on one GPU: NVML telemetry once a second, GEMM throughput per window, and every
// error the checks found. The verdict rules (stress_rules.hpp) read only this, so they can be tested on
// recorded series without a GPU.
#include <cstdint>
#include <string>
#include <vector>

#include "harness/stress/stress_mode.hpp"

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

// One loaded half-period of the pulse load: its GEMMs timed on the GPU, from the first start to the last end.
struct PulseBurst {
  double period_ms = 0;
  double t = 0;       // seconds since the start
  double tflops = 0;  // verified GEMM throughput over the burst
};

// The power load's tuning: from `t` on it kept `lanes` verified GEMM streams in flight at once.
struct PowerLoadStep {
  double t = 0;
  int lanes = 1;
};

// Copies over the GPU's links while it is under load (`--interconnect`), each checked byte for byte.
struct InterconnectRecord {
  bool ran = false;
  int p2p_peer = -1;              // the GPU it pulled from over P2P; -1: none
  std::string p2p_skipped;        // why there was no P2P traffic (one GPU, no peer access)
  unsigned long long p2p_copies = 0;
  unsigned long long p2p_mismatches = 0;  // copies that arrived different from what was sent
  double p2p_bytes = 0;
  unsigned long long pcie_copies = 0;     // host->device and device->host, each counted
  unsigned long long pcie_mismatches = 0;
  double pcie_bytes = 0;
  double seconds = 0;  // how long the copies ran
  std::string error;   // a copy failed (a CUDA error)
};

struct GpuStressRecord {
  int index = 0;
  std::string name;
  std::string uuid;
  StressMode mode = StressMode::Sustained;
  double slowdown_threshold_c = -1;  // NVML's slowdown temperature; -1: not readable
  double power_limit_w = -1;         // NVML's enforced power limit, read and never changed; -1: not readable
  double max_sm_clock_mhz = -1;      // NVML's maximum SM clock; -1: not readable
  std::vector<StressSample> telemetry;
  std::vector<StressWindow> windows;
  std::vector<PulseBurst> bursts;
  std::vector<PowerLoadStep> load_steps;
  unsigned long long gemm_runs = 0;
  unsigned long long gemm_mismatches = 0;  // GEMM outputs that differed from the reference output
  std::string first_gemm_mismatch;
  double memtest_bytes = 0;                // how much memory each pass covered
  unsigned long long memtest_passes = 0;
  unsigned long long memtest_errors = 0;   // words that read back wrong
  std::string first_memtest_error;         // pattern, word index, address, expected, actual, flipped bits
  std::vector<std::string> memtest_error_samples;  // the first kMemtestLoggedErrors wrong words, described so
  std::vector<std::string> xid_events;     // critical Xid errors NVML reported during the run
  InterconnectRecord interconnect;
  std::string worker_error;                // the load itself failed (a CUDA error): the GPU fails
};

}  // namespace gpubench
