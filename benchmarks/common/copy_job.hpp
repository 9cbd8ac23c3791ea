#pragma once
// One host<->device copy, pinned or pageable, checked byte for byte on the device: the pcie family's copies and
// the overlap family's.
#include <cstddef>
#include <cstdint>

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/host_buffer.hpp"
#include "benchmarks/common/mismatch_counter.hpp"
#include "benchmarks/common/host_buffer_pool.hpp"
#include "kernels/random_fill.cuh"
#include "kernels/verify.cuh"

namespace gpubench {

enum class Direction { HostToDevice, DeviceToHost };

inline const char* direction_name(Direction direction) { return direction == Direction::HostToDevice ? "h2d" : "d2h"; }

// One direction's copy on the current GPU. Besides the host and device buffers there is a second device
// buffer: for H2D it holds what the destination must end up holding; for D2H the host's result is brought
// back into it to be compared with the source. Either way the data crosses the link both ways before it is
// compared on the device, so a corruption in either direction shows. Both the source and the destination
// are written here, so whatever a pooled host buffer held before does not matter.
class CopyJob {
 public:
  CopyJob(HostBufferPool& pool, Direction direction, std::size_t bytes, HostMemory kind, int numa_node, std::uint64_t seed,
          cudaStream_t stream)
      : direction_(direction), host_(pool.take(bytes, kind, numa_node)), device_(bytes), check_(bytes) {
    // The source gets random bytes from `seed`; the destination other random bytes, so that a copy that never
    // happened fails the check. The host's bytes are drawn on the device and copied over, which also faults
    // in every page of a pageable buffer before the timing.
    unsigned char* source = direction == Direction::HostToDevice ? check_.get() : device_.get();
    unsigned char* destination = direction == Direction::HostToDevice ? device_.get() : check_.get();
    GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(source, bytes, seed, stream));
    GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(destination, bytes, seed + 1, stream));
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(host_->get(), check_.get(), bytes, cudaMemcpyDeviceToHost, stream));
    GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  Direction direction() const { return direction_; }
  std::size_t bytes() const { return host_->bytes(); }
  const HostBuffer& host() const { return *host_; }

  void enqueue(cudaStream_t stream) const {
    if (direction_ == Direction::HostToDevice) {
      GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(device_.get(), host_->get(), bytes(), cudaMemcpyHostToDevice, stream));
    } else {
      GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(host_->get(), device_.get(), bytes(), cudaMemcpyDeviceToHost, stream));
    }
  }

  // Differing 8-byte words (and tail bytes) between the destination and what it must hold.
  unsigned long long count_mismatches(cudaStream_t stream) const {
    return mismatches_.count(stream, [&](unsigned long long* counter) {
      if (direction_ == Direction::HostToDevice) {
        GPUBENCH_CUDA_CHECK(kernels::count_byte_mismatches(device_.get(), check_.get(), bytes(), counter, stream));
      } else {
        GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(check_.get(), host_->get(), bytes(), cudaMemcpyHostToDevice, stream));
        GPUBENCH_CUDA_CHECK(kernels::count_byte_mismatches(check_.get(), device_.get(), bytes(), counter, stream));
      }
    });
  }

 private:
  Direction direction_;
  HostBufferLease host_;
  DeviceBuffer<unsigned char> device_;
  DeviceBuffer<unsigned char> check_;
  MismatchCounter mismatches_;
};

}  // namespace gpubench
