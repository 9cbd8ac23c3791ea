#pragma once
// The memory test of the sustained load: one buffer over all the memory left free once the GEMM buffers are
// allocated, less a reserve, and one checked pass of a pattern over it at a time.
//
// The reserve (kMemtestReserveBytes, 512 MiB) is for what the CUDA context still allocates after the buffer is
// taken: modules loaded lazily on their first launch, cuBLAS's per-call needs, the driver's own bookkeeping. Less
// than that risks an out-of-memory failure that is no fault of the GPU; on an 80-141 GB card it leaves 99.4-99.6 %
// of the free memory under test. Should the allocation still fail, the reserve doubles, up to 8 GiB.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "benchmarks/common/device_buffer.hpp"
#include "kernels/memtest.cuh"

namespace gpubench {

inline constexpr std::size_t kMemtestReserveBytes = std::size_t(512) << 20;

class MemtestArea {
 public:
  // On the current device.
  MemtestArea();
  std::size_t words() const { return buffer_.count(); }
  std::size_t bytes() const { return buffer_.bytes(); }

  // One pass of `pattern` over the area, checked; `inject` flips bit 17 of the middle word after it is written
  // (the test-only fault, for the pass's sweeps to find). Returns what the check found.
  kernels::MemtestErrors pass(kernels::MemtestPattern pattern, std::uint64_t seed, bool inject, cudaStream_t stream);

  // Each logged error of a pass as "pattern: word I at ADDRESS read X, expected Y (bits Z)", lowest word first.
  std::vector<std::string> describe(const kernels::MemtestErrors& found, kernels::MemtestPattern pattern) const;

 private:
  DeviceBuffer<kernels::MemtestErrors> errors_{1};  // first: the area takes what is left
  DeviceBuffer<std::uint64_t> buffer_;
};

}  // namespace gpubench
