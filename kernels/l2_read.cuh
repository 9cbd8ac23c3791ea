#pragma once
// The L2 sweep's kernel: reads a working set over and over with 16-byte loads cached in L2 and not in L1
// (ld.global.cg), so that a working set that fits in L2 is served by L2, and a larger one by device memory.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

namespace gpubench::kernels {

inline constexpr int kL2ReadBlock = 512;
inline constexpr int kL2ReadUnroll = 4;  // loads each thread has in flight before it uses any

// Thread t of a launch of T threads makes its j-th load from vector (t + j * T) mod vectors: the launch reads
// the working set in order, wrapping round, each warp 512 contiguous bytes at a time.
struct L2ReadArgs {
  const uint4* data = nullptr;
  std::uint32_t vectors = 0;          // the working set, in 16-byte vectors
  std::uint32_t loads_per_thread = 0;  // a multiple of kL2ReadUnroll
  std::uint32_t* sink = nullptr;      // one word per thread: the XOR of every word it loaded
};

// Resident blocks of kL2ReadBlock threads per SM (0 if the kernel cannot launch).
int l2_read_blocks_per_sm();

// Launches `grid` blocks of kL2ReadBlock threads; sink must hold grid * kL2ReadBlock words.
cudaError_t launch_l2_read(const L2ReadArgs& args, int grid, cudaStream_t stream);

// Adds to *mismatches the number of threads of the launch of `grid` blocks whose sink word is not the XOR of the
// words they should have loaded (recomputed on the device with plain loads). Run after the timed launches.
cudaError_t count_l2_read_mismatches(const L2ReadArgs& args, int grid, unsigned long long* mismatches,
                                     cudaStream_t stream);

}  // namespace gpubench::kernels
