#pragma once
// One GPU-to-GPU transfer of the p2p family, with what checks it: the source on the sending GPU, random from a
// seed; on the receiving GPU the destination and the bytes it must end up holding, generated there from the same
// seed, so nothing they are compared with crossed the link. The destination is poisoned (other random bytes)
// before the copies whose result is checked, so a byte they left unwritten differs.
#include <cstddef>
#include <cstdint>
#include <string>

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/mismatch_counter.hpp"
#include "kernels/random_fill.cuh"

namespace gpubench {

inline std::string gpu_name(int index) { return "gpu" + std::to_string(index); }

template <class T>
DeviceBuffer<T> allocate_on(int device, std::size_t count) {
  GPUBENCH_CUDA_CHECK(cudaSetDevice(device));
  return DeviceBuffer<T>(count);
}

class PeerTransfer {
 public:
  PeerTransfer(int from, int to, std::size_t bytes, std::uint64_t seed)
      : from_(from),
        to_(to),
        seed_(seed),
        source_(allocate_on<unsigned char>(from, bytes)),
        destination_(allocate_on<unsigned char>(to, bytes)),
        expected_(allocate_on<unsigned char>(to, bytes)) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(from));
    GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(source_.get(), bytes, seed, nullptr));
    GPUBENCH_CUDA_CHECK(cudaDeviceSynchronize());
    GPUBENCH_CUDA_CHECK(cudaSetDevice(to));
    GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(expected_.get(), bytes, seed, nullptr));
    poison();
  }

  int from() const { return from_; }
  int to() const { return to_; }
  std::size_t bytes() const { return source_.bytes(); }
  const unsigned char* source() const { return source_.get(); }
  unsigned char* destination() const { return destination_.get(); }

  // Refills the destination with other random bytes: whatever the copies leave unwritten then differs.
  void poison() {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(to_));
    GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(destination_.get(), bytes(), ~seed_, nullptr));
    GPUBENCH_CUDA_CHECK(cudaDeviceSynchronize());
  }

  // Differing 8-byte words (and tail bytes) between the destination and what it must hold, counted on the
  // receiving GPU. Call with no copy in flight.
  unsigned long long count_mismatches() const {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(to_));
    return mismatches_.differing_words(destination_.get(), expected_.get(), bytes(), nullptr);
  }

  std::string mismatch_reason(unsigned long long wrong, const std::string& how) const {
    return "verification failed: " + std::to_string(wrong) + " differing 8-byte words in " + std::to_string(bytes()) +
           " bytes copied " + gpu_name(from_) + "->" + gpu_name(to_) + " by " + how;
  }

 private:
  int from_;
  int to_;
  std::uint64_t seed_;
  DeviceBuffer<unsigned char> source_;
  DeviceBuffer<unsigned char> destination_;
  DeviceBuffer<unsigned char> expected_;
  MismatchCounter mismatches_;  // on the receiving GPU, which expected_'s allocation left current
};

}  // namespace gpubench
