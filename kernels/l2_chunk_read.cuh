#pragma once
// The L2 read in chunks: the access pattern of the public measurement that L2 figures are compared with
// (cache_peaks.hpp), for working sets of many chunks, with its 8-byte plain loads.
//
// The working set is cut into chunks of kL2ChunkWords words, and block b reads all of chunk b mod chunks, many
// blocks per chunk. A chunk is kL2PiecesPerChunk pieces of two loads per thread (16 KiB), and chunk c's piece i
// is the working set's piece i * chunks + c, so the blocks that run at once read neighbouring pieces. This is the
// access pattern of gpu-benches' gpu-l2-cache (Dominik Ernst), whose H200 figure is the family's reference. On an
// H200 it drew 4-9 % more from L2 than the sweep's one wave reading the working set in order (l2_read.cuh), and
// 8-byte loads 4-8 % more than 16-byte ones. With few chunks, blocks on one SM read the same lines at once, so
// L1 merges their misses and the figure overstates L2 (an H200 "read" 1 MiB, two chunks, at 16.9 TB/s): hence a
// sweep of its own, and this only for working sets of many chunks (benchmarks/cache/l2_chunk_layout.hpp).
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

namespace gpubench::kernels {

inline constexpr int kL2ChunkBlock = 1024;
inline constexpr int kL2LoadsPerPiece = 2;
inline constexpr int kL2PiecesPerChunk = 32;
inline constexpr int kL2ChunkLoadsPerThread = kL2LoadsPerPiece * kL2PiecesPerChunk;
inline constexpr std::size_t kL2ChunkWords = std::size_t{kL2ChunkLoadsPerThread} * kL2ChunkBlock;  // 512 KiB of uint2

// Load j of thread t in a block on chunk c reads word
//   ((j / kL2LoadsPerPiece * chunks + c) * kL2LoadsPerPiece + j % kL2LoadsPerPiece) * kL2ChunkBlock + t
struct L2ChunkReadArgs {
  const uint2* data = nullptr;    // chunks * kL2ChunkWords words
  std::uint32_t chunks = 0;
  std::uint32_t* sink = nullptr;  // chunks * kL2ChunkBlock words: the XOR of the words thread t of chunk c loaded
};

// Launches `blocks` blocks (a multiple of args.chunks, so every chunk is read as often); the first block on each
// chunk writes its sink words.
cudaError_t launch_l2_chunk_read(const L2ChunkReadArgs& args, std::size_t blocks, cudaStream_t stream);

// One block per chunk recomputes its XORs and counts the sink words that differ.
cudaError_t count_l2_chunk_read_mismatches(const L2ChunkReadArgs& args, unsigned long long* mismatches,
                                          cudaStream_t stream);

}  // namespace gpubench::kernels
