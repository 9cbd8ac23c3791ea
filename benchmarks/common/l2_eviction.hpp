#pragma once
// Evicts a GPU's L2 by writing a scratch buffer twice its size, for a measurement from cold caches.
#include <algorithm>
#include <cstddef>

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/transfer_sizes.hpp"

namespace gpubench {

class L2Eviction {
 public:
  // Allocates the scratch buffer on `device`, which it leaves current.
  explicit L2Eviction(int device) : device_(device), scratch_(scratch_on(device)) {}

  // Overwrites the scratch buffer (a new byte each time) and waits for it; leaves the device current.
  void run() {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(device_));
    GPUBENCH_CUDA_CHECK(cudaMemset(scratch_.get(), ++pattern_, scratch_.bytes()));
    GPUBENCH_CUDA_CHECK(cudaDeviceSynchronize());
  }

 private:
  static DeviceBuffer<unsigned char> scratch_on(int device) {
    int l2_bytes = 0;
    GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
    GPUBENCH_CUDA_CHECK(cudaSetDevice(device));
    return DeviceBuffer<unsigned char>(2 * std::max<std::size_t>(static_cast<std::size_t>(l2_bytes), kMiB));
  }

  int device_;
  DeviceBuffer<unsigned char> scratch_;
  unsigned char pattern_ = 0;
};

}  // namespace gpubench
