#include "kernels/l2_read.cuh"

namespace gpubench::kernels {
namespace {

__device__ __forceinline__ std::uint32_t xor_words(uint4 x) { return x.x ^ x.y ^ x.z ^ x.w; }

// The XOR of every word thread `tid` of `threads` loads. 32-bit indices (the host keeps working sets and grids
// below 2^32 vectors and threads): the index arithmetic then costs a few instructions per 512 bytes a warp loads,
// far from limiting L2 bandwidth. The timed kernel loads with ld.global.cg (L2 only); the checker with plain loads.
template <bool L2Only>
__device__ __forceinline__ std::uint32_t xor_of_thread_loads(const L2ReadArgs& args, std::uint32_t tid,
                                                             std::uint32_t threads) {
  const std::uint32_t step = threads % args.vectors;
  std::uint32_t v = tid % args.vectors;
  std::uint32_t seen = 0;
  for (std::uint32_t j = 0; j < args.loads_per_thread; j += kL2ReadUnroll) {
    uint4 x[kL2ReadUnroll];
#pragma unroll
    for (int u = 0; u < kL2ReadUnroll; ++u) {
      x[u] = L2Only ? __ldcg(args.data + v) : args.data[v];
      v += step;
      if (v >= args.vectors) v -= args.vectors;
    }
#pragma unroll
    for (int u = 0; u < kL2ReadUnroll; ++u) seen ^= xor_words(x[u]);
  }
  return seen;
}

__global__ void __launch_bounds__(kL2ReadBlock) l2_read_kernel(L2ReadArgs args) {
  const std::uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  args.sink[tid] = xor_of_thread_loads<true>(args, tid, gridDim.x * blockDim.x);
}

// Run with the timed launch's grid: each thread recomputes its own sink word.
__global__ void __launch_bounds__(kL2ReadBlock) count_l2_read_mismatches_kernel(L2ReadArgs args,
                                                                                unsigned long long* mismatches) {
  const std::uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (xor_of_thread_loads<false>(args, tid, gridDim.x * blockDim.x) != args.sink[tid]) atomicAdd(mismatches, 1ull);
}

}  // namespace

int l2_read_blocks_per_sm() {
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, l2_read_kernel, kL2ReadBlock, 0) != cudaSuccess) return 0;
  return blocks;
}

cudaError_t launch_l2_read(const L2ReadArgs& args, int grid, cudaStream_t stream) {
  if (grid <= 0 || args.vectors == 0 || args.loads_per_thread % kL2ReadUnroll != 0) return cudaErrorInvalidValue;
  l2_read_kernel<<<grid, kL2ReadBlock, 0, stream>>>(args);
  return cudaGetLastError();
}

cudaError_t count_l2_read_mismatches(const L2ReadArgs& args, int grid, unsigned long long* mismatches,
                                     cudaStream_t stream) {
  if (grid <= 0 || args.vectors == 0 || args.loads_per_thread % kL2ReadUnroll != 0) return cudaErrorInvalidValue;
  count_l2_read_mismatches_kernel<<<grid, kL2ReadBlock, 0, stream>>>(args, mismatches);
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
