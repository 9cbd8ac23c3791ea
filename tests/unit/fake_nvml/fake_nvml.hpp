#pragma once
// A stand-in for libnvidia-ml.so.1 (fake_nvml.cpp), so that GpuSampler runs on a machine without a GPU: one device
// whose answers, failures, GPM metrics, Xid events and ECC counts a test sets through fake_nvml_control(), found
// with dlsym in the library NvmlLibrary::load opened.
#include <nvml.h>

#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

struct FakeNvmlControl {
  // What a call returns instead of answering, by function name ("nvmlDeviceGetUtilizationRates"); absent: success.
  std::map<std::string, nvmlReturn_t> failing;

  // Plain NVML.
  std::string name = "NVIDIA H200";
  unsigned int utilization_percent = 73;
  unsigned long long memory_total = 150754820096ull;  // 140.4 GiB
  unsigned long long memory_used = 75377410048ull;
  unsigned long long memory_reserved = 570425344ull;
  unsigned int power_mw = 350000;
  unsigned int power_limit_mw = 700000, default_power_limit_mw = 700000;
  unsigned int sm_clock_mhz = 1980;
  unsigned int max_memory_clock_mhz = 3201;
  unsigned int bus_width_bits = 6144;
  unsigned int temperature_c = 45;
  unsigned int slowdown_c = 87;
  unsigned long long clock_event_reasons = 0x4;  // SW power cap
  unsigned int pcie_gen = 5, pcie_width = 16, pcie_max_gen = 5, pcie_max_width = 16;

  // GPM.
  unsigned int gpm_supported = 1;
  std::map<unsigned int, double> metric_values;            // by NVML_GPM_METRIC_*
  std::map<unsigned int, nvmlReturn_t> metric_failures;    // per metric, in metrics[i].nvmlReturn
  int next_serial = 0;                                     // the next nvmlGpmSampleGet's number
  std::vector<std::pair<int, int>> metric_intervals;       // (sample1, sample2) serials of each nvmlGpmMetricsGet
  int samples_allocated = 0;

  // Events and ECC.
  std::deque<unsigned long long> pending_xids;
  unsigned long long ecc_corrected = 3, ecc_uncorrected = 0;
  int event_sets = 0;  // alive

  // The processes on the GPU, and the names nvmlSystemGetProcessName gives (a pid without one: NVML_ERROR_NOT_FOUND).
  std::vector<nvmlProcessInfo_t> compute_processes;
  std::vector<nvmlProcessInfo_t> graphics_processes;
  std::map<unsigned int, std::string> process_names;
};

extern "C" FakeNvmlControl* fake_nvml_control();
