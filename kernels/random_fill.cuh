#pragma once
// Device-side random fill: benchmarks never time zeros, and a counter-based generator lets a verifier
// recompute any element from (seed, index) without keeping a copy.
#include <cstddef>
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

namespace gpubench::kernels {

// SplitMix64 finaliser: a stateless hash of (seed, index) with good avalanche.
__host__ __device__ inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A float uniformly drawn from [lo, hi) for element `index` of the stream `seed`.
__host__ __device__ inline float random_float(std::uint64_t seed, std::uint64_t index, float lo, float hi) {
  const std::uint32_t bits = static_cast<std::uint32_t>(mix64(seed * 0x100000001B3ull ^ index) >> 40);  // 24 bits
  return lo + (hi - lo) * (static_cast<float>(bits) * (1.0f / 16777216.0f));
}

// Fills `count` floats with random_float(seed, i, lo, hi).
cudaError_t fill_random(float* data, std::size_t count, std::uint64_t seed, float lo, float hi, cudaStream_t stream);

// Fills `count` bf16 values with random_float(seed, i, lo, hi), rounded to nearest.
cudaError_t fill_random_bf16(__nv_bfloat16* data, std::size_t count, std::uint64_t seed, float lo, float hi,
                             cudaStream_t stream);

// Fills `bytes` bytes with random bytes (for copy benchmarks; compared byte for byte afterwards).
cudaError_t fill_random_bytes(void* data, std::size_t bytes, std::uint64_t seed, cudaStream_t stream);

}  // namespace gpubench::kernels
