#include "kernels/memtest.cuh"

namespace gpubench::kernels {
namespace {

__global__ void write_kernel(std::uint64_t* words, std::size_t count, MemtestPattern pattern, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    words[i] = memtest_expected_word(words, i, pattern, seed);
  }
}

__device__ void log_error(MemtestErrors* errors, std::size_t i, std::uint64_t expected, std::uint64_t actual) {
  const unsigned slot = atomicAdd(&errors->logged, 1u);
  if (slot < kMemtestLoggedErrors) errors->errors[slot] = {static_cast<unsigned long long>(i), expected, actual};
}

__global__ void check_kernel(const std::uint64_t* words, std::size_t count, MemtestPattern pattern, std::uint64_t seed,
                             MemtestErrors* errors) {
  unsigned long long bad = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t want = memtest_expected_word(words, i, pattern, seed);
    const std::uint64_t got = words[i];
    if (got != want) {
      ++bad;
      log_error(errors, i, want, got);
    }
  }
  if (bad) atomicAdd(&errors->count, bad);
}

__global__ void invert_kernel(std::uint64_t* words, std::size_t count, MemtestPattern pattern, std::uint64_t seed,
                              bool complemented, bool descending, MemtestErrors* errors) {
  unsigned long long bad = 0;
  for (std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; k < count;
       k += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t i = descending ? count - 1 - k : k;
    const std::uint64_t word = memtest_expected_word(words, i, pattern, seed);
    const std::uint64_t want = complemented ? ~word : word;
    const std::uint64_t got = words[i];
    if (got != want) {
      ++bad;
      log_error(errors, i, want, got);
    }
    words[i] = ~want;
  }
  if (bad) atomicAdd(&errors->count, bad);
}

constexpr int kThreads = 512;
constexpr int kBlocks = 8192;

}  // namespace

const char* memtest_pattern_name(MemtestPattern pattern) {
  switch (pattern) {
    case MemtestPattern::WalkingOnes: return "walking_ones";
    case MemtestPattern::WalkingZeros: return "walking_zeros";
    case MemtestPattern::Random: return "random";
    case MemtestPattern::AddressInAddress: return "address_in_address";
    case MemtestPattern::MovingInversions: return "moving_inversions";
  }
  return "unknown";
}

cudaError_t memtest_write(std::uint64_t* words, std::size_t count, MemtestPattern pattern, std::uint64_t seed,
                          cudaStream_t stream) {
  write_kernel<<<kBlocks, kThreads, 0, stream>>>(words, count, pattern, seed);
  return cudaGetLastError();
}

cudaError_t memtest_check(const std::uint64_t* words, std::size_t count, MemtestPattern pattern, std::uint64_t seed,
                          MemtestErrors* errors, cudaStream_t stream) {
  check_kernel<<<kBlocks, kThreads, 0, stream>>>(words, count, pattern, seed, errors);
  return cudaGetLastError();
}

cudaError_t memtest_invert(std::uint64_t* words, std::size_t count, MemtestPattern pattern, std::uint64_t seed,
                           bool complemented, bool descending, MemtestErrors* errors, cudaStream_t stream) {
  invert_kernel<<<kBlocks, kThreads, 0, stream>>>(words, count, pattern, seed, complemented, descending, errors);
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
