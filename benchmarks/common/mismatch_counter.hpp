#pragma once
// Verification on the device: a counter that a checking kernel adds its mismatches to, read back by the host,
// so that a result is checked in full without bringing it home.
#include <cstddef>

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "kernels/verify.cuh"

namespace gpubench {

class MismatchCounter {
 public:
  // Allocates the counter on the current GPU.
  MismatchCounter() : counter_(1) {}

  // Zeroes the counter on `stream`, calls `enqueue_check(counter)` to put the checking work on the same
  // stream, and waits for the total.
  template <class EnqueueCheck>
  unsigned long long count(cudaStream_t stream, EnqueueCheck&& enqueue_check) const {
    GPUBENCH_CUDA_CHECK(cudaMemsetAsync(counter_.get(), 0, counter_.bytes(), stream));
    enqueue_check(counter_.get());
    unsigned long long total = 0;
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(&total, counter_.get(), sizeof total, cudaMemcpyDeviceToHost, stream));
    GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    return total;
  }

  // The 8-byte words (and tail bytes) in which `actual` differs from `expected`, both on the device.
  unsigned long long differing_words(const void* actual, const void* expected, std::size_t bytes,
                                     cudaStream_t stream) const {
    return count(stream, [&](unsigned long long* counter) {
      GPUBENCH_CUDA_CHECK(kernels::count_byte_mismatches(actual, expected, bytes, counter, stream));
    });
  }

 private:
  DeviceBuffer<unsigned long long> counter_;
};

}  // namespace gpubench
