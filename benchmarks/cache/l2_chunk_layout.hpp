#pragma once
// How the chunked L2 read (kernels/l2_chunk_read.cuh) covers a working set, and which working sets it measures.
// Plain C++, usable by CPU tests.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "benchmarks/cache/working_sets.hpp"
#include "benchmarks/common/context.hpp"
#include "benchmarks/common/transfer_sizes.hpp"

namespace gpubench {

// What one block reads: kernels::kL2ChunkWords words of 8 bytes.
inline constexpr std::size_t kL2ChunkBytes = 512 * kKiB;
inline constexpr std::size_t kL2ChunkLoadBytes = 8;
// Fewer chunks than this and blocks sharing an SM often read the same lines at once, which L1 merges.
inline constexpr std::size_t kMinL2Chunks = 8;
// Bytes one timed launch of the chunked read reads at least: about 7 ms on an H200, as the public figure's launches
// of 200,000 blocks take 10 ms. Its launches' ramp and drain cost what the sweep's do: at 4 GiB a launch (31 waves
// of an H200's 264 blocks) the read drew 1.1 % (4 MiB) to 1.8 % (32 MiB) less than at 64 GiB (512 waves), whether
// or not the last wave was whole.
inline constexpr std::size_t kL2ChunkBytesPerLaunch = 64 * kGiB;

// Inside the L2 of recent data-centre GPUs, from the smallest of at least kMinL2Chunks chunks (4 MiB, the
// smallest data set the public reference counts) up; the quick suite that one.
inline std::vector<std::size_t> l2_chunk_working_sets(Suite suite) {
  if (suite == Suite::Quick) return {4 * kMiB};
  return {4 * kMiB, 8 * kMiB, 16 * kMiB, 32 * kMiB};
}

// The chunks of a working set, and the blocks of one timed launch (a multiple of `chunks`, so every chunk is read
// as often) reading at least kL2ChunkBytesPerLaunch.
struct L2ChunkLayout {
  std::uint32_t chunks = 0;
  std::size_t blocks = 0;
  std::size_t bytes_per_launch = 0;
};

// Nothing for a working set that is not at least kMinL2Chunks whole chunks, or past the kernel's 32-bit indices.
inline std::optional<L2ChunkLayout> l2_chunk_layout(std::size_t working_set_bytes) {
  if (working_set_bytes % kL2ChunkBytes != 0 || working_set_bytes / kL2ChunkBytes < kMinL2Chunks) return std::nullopt;
  if (working_set_bytes / kL2ChunkLoadBytes > 0xFFFFFFFFu) return std::nullopt;
  L2ChunkLayout layout;
  layout.chunks = static_cast<std::uint32_t>(working_set_bytes / kL2ChunkBytes);
  const std::size_t wanted = (std::max(kL2ChunkBytesPerLaunch, working_set_bytes) + kL2ChunkBytes - 1) / kL2ChunkBytes;
  layout.blocks = (wanted + layout.chunks - 1) / layout.chunks * layout.chunks;
  layout.bytes_per_launch = layout.blocks * kL2ChunkBytes;
  return layout;
}

}  // namespace gpubench
