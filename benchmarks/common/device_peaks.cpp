#include "benchmarks/common/device_peaks.hpp"

#include "benchmarks/common/cuda_check.hpp"

namespace gpubench {

double memory_peak_gbps(int device) {
  int memory_clock_khz = 0;
  int bus_width_bits = 0;
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, device));
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  return dram_peak_gbps(memory_clock_khz, bus_width_bits);
}

}  // namespace gpubench
