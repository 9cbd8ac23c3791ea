#include "kernels/l2_read.cuh"

namespace gpubench::kernels {
namespace {

__device__ __forceinline__ std::uint32_t xor_words(uint4 x) { return x.x ^ x.y ^ x.z ^ x.w; }

// 32-bit indices (the host keeps working sets and grids below 2^32 vectors and threads): the index arithmetic
// then costs a few instructions per 512 bytes a warp loads, far from limiting L2 bandwidth.
__global__ void __launch_bounds__(kL2ReadBlock) l2_read_kernel(L2ReadArgs args) {
  const std::uint32_t threads = gridDim.x * blockDim.x;
  const std::uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t step = threads % args.vectors;
  std::uint32_t v = tid % args.vectors;
  std::uint32_t seen = 0;
  for (std::uint32_t j = 0; j < args.loads_per_thread; j += kL2ReadUnroll) {
    uint4 x[kL2ReadUnroll];
#pragma unroll
    for (int u = 0; u < kL2ReadUnroll; ++u) {
      x[u] = __ldcg(args.data + v);
      v += step;
      if (v >= args.vectors) v -= args.vectors;
    }
#pragma unroll
    for (int u = 0; u < kL2ReadUnroll; ++u) seen ^= xor_words(x[u]);
  }
  args.sink[tid] = seen;
}

// The launch made threads * loads_per_thread loads, the i-th from vector i mod vectors: every vector was loaded
// loads / vectors times, and those below loads % vectors once more. XOR keeps only the parity of the count.
__global__ void l2_read_checksums_kernel(L2ReadArgs args, std::size_t threads, std::uint32_t* checksums) {
  const std::size_t loads = threads * args.loads_per_thread;
  const std::size_t every_vector = loads / args.vectors;
  const std::size_t one_more_below = loads % args.vectors;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t tid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  std::uint32_t from_data = 0;
  std::uint32_t from_sink = 0;
  for (std::size_t v = tid; v < args.vectors; v += stride) {
    const std::size_t times_loaded = every_vector + (v < one_more_below ? 1 : 0);
    if (times_loaded % 2 == 1) from_data ^= xor_words(args.data[v]);
  }
  for (std::size_t w = tid; w < threads; w += stride) from_sink ^= args.sink[w];
  atomicXor(&checksums[0], from_data);
  atomicXor(&checksums[1], from_sink);
}

__global__ void compare_l2_checksums_kernel(const std::uint32_t* checksums, unsigned long long* mismatches) {
  if (checksums[0] != checksums[1]) atomicAdd(mismatches, 1ull);
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

cudaError_t count_l2_read_mismatches(const L2ReadArgs& args, std::size_t threads, unsigned long long* mismatches,
                                     cudaStream_t stream) {
  std::uint32_t* checksums = nullptr;
  cudaError_t err = cudaMallocAsync(&checksums, 2 * sizeof(std::uint32_t), stream);
  if (err != cudaSuccess) return err;
  cudaMemsetAsync(checksums, 0, 2 * sizeof(std::uint32_t), stream);
  l2_read_checksums_kernel<<<1024, 256, 0, stream>>>(args, threads, checksums);
  compare_l2_checksums_kernel<<<1, 1, 0, stream>>>(checksums, mismatches);
  err = cudaGetLastError();
  cudaFreeAsync(checksums, stream);
  return err;
}

}  // namespace gpubench::kernels
