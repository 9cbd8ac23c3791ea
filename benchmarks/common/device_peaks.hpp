#pragma once
// Theoretical peaks computed from what the device reports about itself, never from a table of models.
namespace gpubench {

// DRAM bandwidth in decimal GB/s: memory clock x 2 (double data rate) x bus width in bytes.
constexpr double dram_peak_gbps(double memory_clock_khz, double bus_width_bits) {
  return 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8.0) / 1e9;
}

// dram_peak_gbps from the CUDA attributes of `device`.
double memory_peak_gbps(int device);

}  // namespace gpubench
