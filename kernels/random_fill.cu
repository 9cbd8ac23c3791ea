#include "kernels/random_fill.cuh"

namespace gpubench::kernels {
namespace {

__global__ void fill_random_kernel(float* data, std::size_t count, std::uint64_t seed, float lo, float hi) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    data[i] = random_float(seed, i, lo, hi);
  }
}

__global__ void fill_random_bf16_kernel(__nv_bfloat16* data, std::size_t count, std::uint64_t seed, float lo, float hi) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    data[i] = __float2bfloat16_rn(random_float(seed, i, lo, hi));
  }
}

__global__ void fill_random_words_kernel(std::uint64_t* words, std::size_t count, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    words[i] = mix64(seed ^ (i * 0xD6E8FEB86659FD93ull));
  }
}

__global__ void fill_random_tail_kernel(unsigned char* tail, std::size_t count, std::uint64_t seed) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < count) tail[i] = static_cast<unsigned char>(mix64(seed + i));
}

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 65536;

int blocks_for(std::size_t count) {
  const std::size_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < kMaxBlocks ? (blocks == 0 ? 1 : blocks) : kMaxBlocks);
}

}  // namespace

cudaError_t fill_random(float* data, std::size_t count, std::uint64_t seed, float lo, float hi, cudaStream_t stream) {
  fill_random_kernel<<<blocks_for(count), kThreads, 0, stream>>>(data, count, seed, lo, hi);
  return cudaGetLastError();
}

cudaError_t fill_random_bf16(__nv_bfloat16* data, std::size_t count, std::uint64_t seed, float lo, float hi,
                             cudaStream_t stream) {
  fill_random_bf16_kernel<<<blocks_for(count), kThreads, 0, stream>>>(data, count, seed, lo, hi);
  return cudaGetLastError();
}

cudaError_t fill_random_bytes(void* data, std::size_t bytes, std::uint64_t seed, cudaStream_t stream) {
  // cudaMalloc'd memory is 256-byte aligned, so the body can be written as 8-byte words.
  const std::size_t words = bytes / sizeof(std::uint64_t);
  const std::size_t tail = bytes - words * sizeof(std::uint64_t);
  if (words > 0) {
    fill_random_words_kernel<<<blocks_for(words), kThreads, 0, stream>>>(static_cast<std::uint64_t*>(data), words, seed);
  }
  if (tail > 0) {
    fill_random_tail_kernel<<<1, kThreads, 0, stream>>>(static_cast<unsigned char*>(data) + words * 8, tail, seed);
  }
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
