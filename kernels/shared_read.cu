#include "kernels/shared_read.cuh"

namespace gpubench::kernels {
namespace {

// A load the compiler must issue every time it is written: the tile never changes, so plain loads of it would be
// hoisted out of the rounds loop. `asm volatile` only binds the front end: ptxas still hoisted a plain ld.shared
// (an H200 "read" 3.8 times its shared-memory peak), so the load itself is .volatile.
__device__ __forceinline__ uint4 load_shared(const uint4* address) {
  uint4 x;
  asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(x.x), "=r"(x.y), "=r"(x.z), "=r"(x.w)
               : "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(address))));
  return x;
}

__global__ void __launch_bounds__(kSharedReadBlock) shared_read_kernel(SharedReadArgs args) {
  __shared__ uint4 tile[kSharedTileVectors];
  for (int v = threadIdx.x; v < kSharedTileVectors; v += kSharedReadBlock) tile[v] = args.tile[v];
  __syncthreads();
  uint4 sum = make_uint4(0, 0, 0, 0);  // four independent chains of adds
  for (std::uint32_t round = 0; round < args.rounds; ++round) {
    uint4 x[kSharedVectorsPerThread];
#pragma unroll
    for (int k = 0; k < kSharedVectorsPerThread; ++k) x[k] = load_shared(&tile[threadIdx.x + k * kSharedReadBlock]);
#pragma unroll
    for (int k = 0; k < kSharedVectorsPerThread; ++k) {
      sum.x += x[k].x;
      sum.y += x[k].y;
      sum.z += x[k].z;
      sum.w += x[k].w;
    }
  }
  args.sink[blockIdx.x * kSharedReadBlock + threadIdx.x] = sum.x + sum.y + sum.z + sum.w;
}

}  // namespace

int shared_read_blocks_per_sm() {
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, shared_read_kernel, kSharedReadBlock, 0) != cudaSuccess) {
    return 0;
  }
  return blocks;
}

cudaError_t launch_shared_read(const SharedReadArgs& args, int grid, cudaStream_t stream) {
  if (grid <= 0 || args.tile == nullptr || args.sink == nullptr) return cudaErrorInvalidValue;
  shared_read_kernel<<<grid, kSharedReadBlock, 0, stream>>>(args);
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
