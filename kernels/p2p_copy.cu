#include "kernels/p2p_copy.cuh"

#include <cstdint>

namespace gpubench::kernels {
namespace {

constexpr int kBlock = 512;
// 16-byte loads each thread issues before its first store: a remote load takes a microsecond or more to
// come back over the link, so many must be in flight to fill it.
constexpr int kUnroll = 4;

__global__ void __launch_bounds__(kBlock) copy_vectors_kernel(uint4* destination, const uint4* source, std::size_t vectors) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t v = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; v + (kUnroll - 1) * stride < vectors; v += kUnroll * stride) {
    uint4 x[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) x[u] = source[v + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) destination[v + u * stride] = x[u];
  }
  for (; v < vectors; v += stride) destination[v] = source[v];
}

__global__ void __launch_bounds__(kBlock) copy_bytes_kernel(unsigned char* destination, const unsigned char* source,
                                                            std::size_t bytes) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < bytes;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    destination[i] = source[i];
  }
}

bool aligned16(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0; }

}  // namespace

cudaError_t peer_copy_launch_for_current_device(PeerCopyLaunch* launch) {
  int device = 0;
  cudaError_t status = cudaGetDevice(&device);
  if (status != cudaSuccess) return status;
  int sm_count = 0;
  status = cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device);
  if (status != cudaSuccess) return status;
  int per_sm = 0;
  status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, copy_vectors_kernel, kBlock, 0);
  if (status != cudaSuccess) return status;
  if (per_sm == 0 || sm_count == 0) return cudaErrorInvalidConfiguration;
  launch->block = kBlock;
  launch->grid = per_sm * sm_count;
  return cudaSuccess;
}

cudaError_t launch_peer_copy(void* destination, const void* source, std::size_t bytes, const PeerCopyLaunch& launch,
                             cudaStream_t stream) {
  if (launch.grid <= 0 || launch.block <= 0 || launch.block > kBlock) return cudaErrorInvalidValue;
  auto* out = static_cast<unsigned char*>(destination);
  const auto* in = static_cast<const unsigned char*>(source);
  const std::size_t vectors = aligned16(out) && aligned16(in) ? bytes / 16 : 0;
  if (vectors > 0) {
    copy_vectors_kernel<<<launch.grid, launch.block, 0, stream>>>(reinterpret_cast<uint4*>(out),
                                                                   reinterpret_cast<const uint4*>(in), vectors);
  }
  const std::size_t done = vectors * 16;
  if (done < bytes) {
    copy_bytes_kernel<<<vectors > 0 ? 1 : launch.grid, launch.block, 0, stream>>>(out + done, in + done, bytes - done);
  }
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
