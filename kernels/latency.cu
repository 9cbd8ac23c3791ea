#include "kernels/latency.cuh"

namespace gpubench::kernels {
namespace {

__global__ void build_ring_kernel(unsigned char* ring, std::size_t node_stride, const std::uint32_t* order,
                                  std::size_t nodes) {
  for (std::size_t k = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < nodes;
       k += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t next = order[k + 1 == nodes ? 0 : k + 1];
    *reinterpret_cast<std::uint64_t*>(ring + order[k] * node_stride) = next * node_stride;
  }
}

__global__ void pointer_chase_kernel(const unsigned char* ring, std::uint64_t start, std::uint64_t steps,
                                     ChaseResult* result) {
  std::uint64_t at = start;
  std::uint64_t first_return = 0;
  for (std::uint64_t step = 1; step <= steps; ++step) {
    at = __ldcg(reinterpret_cast<const unsigned long long*>(ring + at));
    // Off the chain of dependent loads: the next load needs only `at`.
    if (at == start && first_return == 0) first_return = step;
  }
  result->end = at;
  result->first_return = first_return;
}

}  // namespace

cudaError_t build_ring(unsigned char* ring, std::size_t node_stride, const std::uint32_t* order, std::size_t nodes,
                       cudaStream_t stream) {
  if (nodes == 0 || node_stride % 8 != 0) return cudaErrorInvalidValue;
  const std::size_t blocks = (nodes + 255) / 256;
  build_ring_kernel<<<static_cast<unsigned>(blocks < 4096 ? blocks : 4096), 256, 0, stream>>>(ring, node_stride, order, nodes);
  return cudaGetLastError();
}

cudaError_t launch_pointer_chase(const unsigned char* ring, std::uint64_t start, std::uint64_t steps, ChaseResult* result,
                                 cudaStream_t stream) {
  pointer_chase_kernel<<<1, 1, 0, stream>>>(ring, start, steps, result);
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
