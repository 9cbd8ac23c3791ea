#pragma once
// The GPU of the watch tests' recorded timelines: GPU 0, an H200 as GpuSampler::describe() finds it (4.8 TB/s
// theoretical DRAM peak, PCIe Gen5 x16, slowdown at 87 °C), without samples.
#include "harness/watch/watch_timeline.hpp"

namespace gpubench {

inline GpuTimeline watched_h200() {
  GpuTimeline gpu;
  gpu.name = "NVIDIA H200";
  gpu.dram_peak_gbps = 4800;
  gpu.pcie_max_gen = 5;
  gpu.pcie_max_width = 16;
  gpu.slowdown_temperature_c = 87;
  return gpu;
}

}  // namespace gpubench
