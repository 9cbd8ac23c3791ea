#pragma once
// The shared-memory bandwidth kernel: every block copies a 32 KiB tile into shared memory, then reads it over
// and over with conflict-free 16-byte loads (a quarter-warp's eight loads cover all 32 banks once).
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

namespace gpubench::kernels {

inline constexpr int kSharedReadBlock = 512;
inline constexpr int kSharedVectorsPerThread = 4;
inline constexpr int kSharedTileVectors = kSharedReadBlock * kSharedVectorsPerThread;  // 32 KiB

// In every round, thread t of each block loads tile vectors t, t + kSharedReadBlock, t + 2 * kSharedReadBlock and
// t + 3 * kSharedReadBlock, and adds their words (modulo 2^32) into its sink word.
struct SharedReadArgs {
  const uint4* tile = nullptr;  // kSharedTileVectors vectors in device memory, copied into each block's tile
  std::uint32_t rounds = 0;
  std::uint32_t* sink = nullptr;  // one word per thread
};

// Resident blocks per SM (0 if the kernel cannot launch).
int shared_read_blocks_per_sm();

// Launches `grid` blocks of kSharedReadBlock threads; sink must hold grid * kSharedReadBlock words.
cudaError_t launch_shared_read(const SharedReadArgs& args, int grid, cudaStream_t stream);

}  // namespace gpubench::kernels
