#pragma once
// Device memory test patterns for burn-in: each pattern is written by one kernel and checked by another that
// recomputes the expected word from its address alone, so any flipped bit is found with where it was. Moving
// inversions also reads each word and writes its complement, up the buffer and then down it, before the check.
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
  MovingInversions,  // random words, then each read and complemented going up, then read and restored going down
};

inline constexpr int kMemtestPatterns = 5;

const char* memtest_pattern_name(MemtestPattern pattern);

// One word that read back wrong.
struct MemtestError {
  unsigned long long index = 0;
  std::uint64_t expected = 0;
  std::uint64_t actual = 0;
};

// What a check found: every wrong word counted, the first kMemtestLoggedErrors of them (in no particular order)
// kept with what they held. Zero it before a check.
inline constexpr unsigned kMemtestLoggedErrors = 16;
struct MemtestErrors {
  unsigned long long count = 0;
  unsigned logged = 0;  // may pass kMemtestLoggedErrors: slots are claimed before they are checked
  MemtestError errors[kMemtestLoggedErrors];
};

// The word a pattern puts at index i of the buffer starting at `base` (host and device).
__host__ __device__ inline std::uint64_t memtest_expected_word(const std::uint64_t* base, std::size_t i,
                                                               MemtestPattern pattern, std::uint64_t seed) {
  switch (pattern) {
    case MemtestPattern::WalkingOnes: return 1ull << ((i + seed) % 64);
    case MemtestPattern::WalkingZeros: return ~(1ull << ((i + seed) % 64));
    case MemtestPattern::Random:
    case MemtestPattern::MovingInversions: return mix64(seed ^ (i * 0x9E3779B97F4A7C15ull));
    case MemtestPattern::AddressInAddress: return reinterpret_cast<std::uint64_t>(base + i) ^ seed;
  }
  return 0;
}

cudaError_t memtest_write(std::uint64_t* words, std::size_t count, MemtestPattern pattern, std::uint64_t seed,
                          cudaStream_t stream);

// Accumulates into *errors (device memory, zeroed by the caller).
cudaError_t memtest_check(const std::uint64_t* words, std::size_t count, MemtestPattern pattern, std::uint64_t seed,
                          MemtestErrors* errors, cudaStream_t stream);

// One sweep of moving inversions: each word must hold the pattern's word (complemented when `complemented`), and
// gets its complement, the expected one and not what was read, so that one fault is counted once. Indices go up,
// or down when `descending`.
cudaError_t memtest_invert(std::uint64_t* words, std::size_t count, MemtestPattern pattern, std::uint64_t seed,
                           bool complemented, bool descending, MemtestErrors* errors, cudaStream_t stream);

}  // namespace gpubench::kernels
