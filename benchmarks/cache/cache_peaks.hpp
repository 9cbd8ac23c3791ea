#pragma once
// What the cache family's figures are compared with. Plain C++, usable by CPU tests.
//
// Shared memory has a documented rate per clock: 32 banks, each delivering 32 bits per clock cycle (CUDA C++
// Programming Guide, "Compute Capability 5.x", Shared Memory, which the later capabilities' sections keep), so
// 128 bytes per clock per SM, times the SM count and the SM clock the device reports.
//
// L2 has no documented rate. The reference of every point of the sweep is the best public measurement of L2 read
// bandwidth for that GPU, where one is known, so the fraction falls where the working set leaves L2. It is not
// the DRAM peak past L2's size: L2 keeps part of a working set somewhat larger than itself (an H200 read 64 MiB,
// 1.3 times its L2, at 8 TB/s), so such a point can beat the DRAM peak by far and would be judged implausible.
// Public measurement: Dominik Ernst's gpu-benches, gpu-l2-cache, the results files
// https://github.com/te42kyfo/gpu-benches/blob/3088b3337998d1d9fff53c7af665f587af83a178/gpu-l2-cache/h200.txt and
// .../70c3826d5f0999617878ceb5938dc546d7f68708/gpu-l2-cache/h100_pcie.txt: the highest "Eff. bw" for a data set
// of 4 MiB or more. The files list smaller data sets too, at higher figures; they are left out because how much
// of those came from L1 cannot be told from the files (docs/results-schema.md).
#include <optional>
#include <string>
#include <string_view>

namespace gpubench {

inline constexpr double kSharedBytesPerClockPerSm = 32 * 4;

// Shared-memory peak of one SM, GB/s, at `sm_clock_khz` (as cudaDevAttrClockRate reports it).
constexpr double shared_peak_gbps_per_sm(double sm_clock_khz) {
  return sm_clock_khz * 1e3 * kSharedBytesPerClockPerSm / 1e9;
}

constexpr double shared_peak_gbps(int sm_count, double sm_clock_khz) {
  return sm_count * shared_peak_gbps_per_sm(sm_clock_khz);
}

struct PublicL2Measurement {
  double gbps = 0;
  const char* source = "";
};

// The best public L2 read measurement for a GPU, by the name CUDA reports ("NVIDIA H200"); nothing for others.
inline std::optional<PublicL2Measurement> public_l2_measurement(std::string_view device_name) {
  if (device_name.find("H200") != std::string_view::npos) {
    return PublicL2Measurement{10619.2, "gpu-benches gpu-l2-cache h200.txt, 4 MiB data set"};
  }
  if (device_name.find("H100 PCIe") != std::string_view::npos) {
    return PublicL2Measurement{7380.3, "gpu-benches gpu-l2-cache h100_pcie.txt, 4.1 MiB data set"};
  }
  return std::nullopt;
}

// The reference of one point of the L2 sweep, and where it comes from (kept in the figure's params).
struct L2Reference {
  std::optional<double> gbps;
  std::string source;
};

inline L2Reference l2_reference(std::string_view device_name) {
  if (const std::optional<PublicL2Measurement> measured = public_l2_measurement(device_name)) {
    return {measured->gbps, measured->source};
  }
  return {std::nullopt, "none: no public L2 measurement known for this GPU"};
}

}  // namespace gpubench
