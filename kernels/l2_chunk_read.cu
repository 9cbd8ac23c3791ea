#include "kernels/l2_chunk_read.cuh"

namespace gpubench::kernels {
namespace {

// The XOR of every word thread `t` of a block on `chunk` loads. The loads are fully unrolled and independent, so
// the compiler keeps as many in flight as registers allow. Plain loads, as the public figure's: with 8 chunks or
// more, L1 serves next to nothing (under ncu on an H200, 0.2-1.0 % of sectors at 4-32 MiB), and they drew 1-2 %
// more than ld.global.cg, which skips L1 but is served no faster by L2.
__device__ __forceinline__ std::uint32_t xor_of_chunk_loads(const L2ChunkReadArgs& args, std::uint32_t chunk,
                                                            std::uint32_t t) {
  std::uint32_t seen = 0;
#pragma unroll
  for (int j = 0; j < kL2ChunkLoadsPerThread; ++j) {
    const std::uint32_t piece = static_cast<std::uint32_t>(j / kL2LoadsPerPiece) * args.chunks + chunk;
    const std::uint32_t word =
        (piece * kL2LoadsPerPiece + static_cast<std::uint32_t>(j % kL2LoadsPerPiece)) * kL2ChunkBlock + t;
    const uint2 x = args.data[word];
    seen ^= x.x ^ x.y;
  }
  return seen;
}

// Never a real XOR in practice; comparing with it keeps every block's loads live without every block storing.
constexpr std::uint32_t kUnlikelyXor = 0x9E3779B9u;

__global__ void __launch_bounds__(kL2ChunkBlock) l2_chunk_read_kernel(L2ChunkReadArgs args) {
  const std::uint32_t chunk = blockIdx.x % args.chunks;
  const std::uint32_t seen = xor_of_chunk_loads(args, chunk, threadIdx.x);
  if (blockIdx.x < args.chunks || seen == kUnlikelyXor) args.sink[chunk * kL2ChunkBlock + threadIdx.x] = seen;
}

__global__ void __launch_bounds__(kL2ChunkBlock) count_l2_chunk_read_mismatches_kernel(L2ChunkReadArgs args,
                                                                                unsigned long long* mismatches) {
  const std::uint32_t seen = xor_of_chunk_loads(args, blockIdx.x, threadIdx.x);
  if (seen != args.sink[blockIdx.x * kL2ChunkBlock + threadIdx.x]) atomicAdd(mismatches, 1ull);
}

bool valid(const L2ChunkReadArgs& args) { return args.data != nullptr && args.sink != nullptr && args.chunks != 0; }

}  // namespace

cudaError_t launch_l2_chunk_read(const L2ChunkReadArgs& args, std::size_t blocks, cudaStream_t stream) {
  if (!valid(args) || blocks == 0 || blocks % args.chunks != 0 || blocks > 0x7FFFFFFFu) return cudaErrorInvalidValue;
  l2_chunk_read_kernel<<<static_cast<unsigned>(blocks), kL2ChunkBlock, 0, stream>>>(args);
  return cudaGetLastError();
}

cudaError_t count_l2_chunk_read_mismatches(const L2ChunkReadArgs& args, unsigned long long* mismatches,
                                          cudaStream_t stream) {
  if (!valid(args) || mismatches == nullptr) return cudaErrorInvalidValue;
  count_l2_chunk_read_mismatches_kernel<<<args.chunks, kL2ChunkBlock, 0, stream>>>(args, mismatches);
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
