#pragma once
// The L2 sweep's working sets, and how much one timed launch reads. Plain C++, usable by CPU tests.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "benchmarks/common/context.hpp"
#include "benchmarks/common/transfer_sizes.hpp"

namespace gpubench {

// The same sizes on every GPU, so that metric ids are too: a few KiB, then 8 MiB steps through the L2 sizes of
// recent data-centre GPUs (A100 40 MiB, H100 and H200 50 MiB, as cudaDevAttrL2CacheSize reports them), then up to
// 512 MiB, several times any of them, where device memory serves every load. The quick suite keeps one size well
// inside L2, one just inside and one just outside an H100's, and one far outside.
inline std::vector<std::size_t> l2_working_sets(Suite suite) {
  if (suite == Suite::Quick) return {4 * kMiB, 32 * kMiB, 64 * kMiB, 256 * kMiB};
  return {4 * kKiB,  64 * kKiB, 1 * kMiB,  4 * kMiB,  8 * kMiB,  16 * kMiB,  24 * kMiB,  32 * kMiB,
          40 * kMiB, 48 * kMiB, 56 * kMiB, 64 * kMiB, 96 * kMiB, 128 * kMiB, 256 * kMiB, 512 * kMiB};
}

// Bytes one timed launch reads at least: about half a millisecond at an H200's L2 bandwidth, far above the
// event timer's resolution. A working set larger than this is read once.
inline constexpr std::size_t kL2BytesPerLaunch = 4 * kGiB;
inline constexpr std::size_t kL2LoadBytes = 16;

// Loads each of `threads` threads makes so that the launch reads max(kL2BytesPerLaunch, working set) bytes or a
// little more: rounded up to whole loads and to a multiple of `unroll`.
inline std::uint32_t l2_loads_per_thread(std::size_t working_set_bytes, std::size_t threads, int unroll) {
  const std::size_t bytes = std::max(kL2BytesPerLaunch, working_set_bytes);
  const std::size_t loads = (bytes / kL2LoadBytes + threads - 1) / threads;
  const std::size_t step = static_cast<std::size_t>(unroll);
  return static_cast<std::uint32_t>((loads + step - 1) / step * step);
}

// Bytes a launch of `threads` threads, each making `loads_per_thread` 16-byte loads, reads.
inline std::size_t l2_bytes_per_launch(std::size_t threads, std::uint32_t loads_per_thread) {
  return threads * loads_per_thread * kL2LoadBytes;
}

// Whether L2 can hold the whole working set; the figure's reference follows (cache_peaks.hpp).
inline bool fits_in_l2(std::size_t working_set_bytes, std::size_t l2_bytes) { return working_set_bytes <= l2_bytes; }

}  // namespace gpubench
