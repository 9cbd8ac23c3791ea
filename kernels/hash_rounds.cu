#include "kernels/hash_rounds.cuh"

namespace gpubench::kernels {
namespace {

constexpr int kThreads = 256;
constexpr std::size_t kMaxBlocks = 65536;

__global__ void hash_rounds_kernel(const std::uint32_t* __restrict__ input, std::uint32_t* __restrict__ output,
                                   std::size_t count, std::uint32_t rounds) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    output[i] = hash_rounds(input[i], rounds);
  }
}

}  // namespace

cudaError_t launch_hash_rounds(const std::uint32_t* input, std::uint32_t* output, std::size_t count,
                               std::uint32_t rounds, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  const std::size_t blocks = (count + kThreads - 1) / kThreads;
  hash_rounds_kernel<<<static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks), kThreads, 0, stream>>>(
      input, output, count, rounds);
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
