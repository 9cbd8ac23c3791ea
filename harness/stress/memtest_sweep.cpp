#include "harness/stress/memtest_sweep.hpp"

#include <algorithm>
#include <cstdio>

#include "benchmarks/common/cuda_check.hpp"

namespace gpubench {
namespace {

constexpr std::size_t kLargestReserve = std::size_t(8) << 30;

std::string hex(unsigned long long value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%016llx", value);
  return text;
}

// All free memory less the reserve, the reserve doubling while the allocation fails.
DeviceBuffer<std::uint64_t> all_free_memory() {
  for (std::size_t reserve = kMemtestReserveBytes;; reserve *= 2) {
    std::size_t free_bytes = 0, total_bytes = 0;
    GPUBENCH_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::size_t words = free_bytes > reserve ? (free_bytes - reserve) / sizeof(std::uint64_t) : 1;
    try {
      return DeviceBuffer<std::uint64_t>(words);
    } catch (const CudaError& error) {
      if (error.status() != cudaErrorMemoryAllocation || reserve >= kLargestReserve) throw;
      cudaGetLastError();  // not sticky: clear it so the next call does not report it
    }
  }
}

}  // namespace

MemtestArea::MemtestArea() : buffer_(all_free_memory()) {}

kernels::MemtestErrors MemtestArea::pass(kernels::MemtestPattern pattern, std::uint64_t seed, bool inject, cudaStream_t stream) {
  std::uint64_t* words = buffer_.get();
  const std::size_t count = buffer_.count();
  const kernels::MemtestErrors none{};
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(errors_.get(), &none, sizeof none, cudaMemcpyHostToDevice, stream));
  GPUBENCH_CUDA_CHECK(kernels::memtest_write(words, count, pattern, seed, stream));
  if (inject) {
    std::uint64_t word = 0;
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(&word, words + count / 2, 8, cudaMemcpyDeviceToHost, stream));
    GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    word ^= 1ull << 17;
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(words + count / 2, &word, 8, cudaMemcpyHostToDevice, stream));
  }
  if (pattern == kernels::MemtestPattern::MovingInversions) {
    GPUBENCH_CUDA_CHECK(kernels::memtest_invert(words, count, pattern, seed, false, false, errors_.get(), stream));
    GPUBENCH_CUDA_CHECK(kernels::memtest_invert(words, count, pattern, seed, true, true, errors_.get(), stream));
  }
  GPUBENCH_CUDA_CHECK(kernels::memtest_check(words, count, pattern, seed, errors_.get(), stream));
  kernels::MemtestErrors found{};
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(&found, errors_.get(), sizeof found, cudaMemcpyDeviceToHost, stream));
  GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return found;
}

std::vector<std::string> MemtestArea::describe(const kernels::MemtestErrors& found, kernels::MemtestPattern pattern) const {
  std::vector<kernels::MemtestError> logged(found.errors, found.errors + std::min(found.logged, kernels::kMemtestLoggedErrors));
  std::sort(logged.begin(), logged.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  std::vector<std::string> described;
  for (const kernels::MemtestError& error : logged) {
    described.push_back(std::string(kernels::memtest_pattern_name(pattern)) + ": word " + std::to_string(error.index) +
                        " at " + hex(reinterpret_cast<std::uint64_t>(buffer_.get() + error.index)) + " read " +
                        hex(error.actual) + ", expected " + hex(error.expected) + " (bits " +
                        hex(error.actual ^ error.expected) + ")");
  }
  return described;
}

}  // namespace gpubench
