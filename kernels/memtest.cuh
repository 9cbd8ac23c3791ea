#pragma once
// Device memory test patterns for burn-in: each pattern is written by one kernel and checked by another that
// recomputes the expected word from its address alone, so any flipped bit is found with where it was.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

#include "kernels/random_fill.cuh"

namespace gpubench::kernels {

enum class MemtestPattern {
  WalkingOnes,       // word i holds 1 << (i % 64), with `pass` rotating the bit between passes
  WalkingZeros,      // the complement of walking ones
  Random,            // a hash of (seed, i)
  AddressInAddress,  // each word holds its own address: catches address-line faults and aliasing
};

const char* memtest_pattern_name(MemtestPattern pattern);

struct MemtestErrors {
  unsigned long long count = 0;       // words that read back wrong
  unsigned long long first_index = 0; // smallest wrong word index (valid when count > 0)
};

// The word a pattern puts at index i of the buffer starting at `base` (host and device).
__host__ __device__ inline std::uint64_t memtest_expected_word(const std::uint64_t* base, std::size_t i,
                                                               MemtestPattern pattern, std::uint64_t seed) {
  switch (pattern) {
    case MemtestPattern::WalkingOnes: return 1ull << ((i + seed) % 64);
    case MemtestPattern::WalkingZeros: return ~(1ull << ((i + seed) % 64));
    case MemtestPattern::Random: return mix64(seed ^ (i * 0x9E3779B97F4A7C15ull));
    case MemtestPattern::AddressInAddress: return reinterpret_cast<std::uint64_t>(base + i) ^ seed;
  }
  return 0;
}

cudaError_t memtest_write(std::uint64_t* words, std::size_t count, MemtestPattern pattern, std::uint64_t seed,
                          cudaStream_t stream);

// Accumulates into *errors (device memory, zeroed by the caller; first_index must start at ~0ull).
cudaError_t memtest_check(const std::uint64_t* words, std::size_t count, MemtestPattern pattern, std::uint64_t seed,
                          MemtestErrors* errors, cudaStream_t stream);

}  // namespace gpubench::kernels
