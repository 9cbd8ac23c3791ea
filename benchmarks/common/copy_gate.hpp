#pragma once
// The host side of kernels/gate.cuh: one flag in mapped pinned memory that any number of gate kernels, on
// any stream of any GPU, wait on; open() releases them all at once.
//
// Only work that the host can enqueue without waiting for the GPU may go behind a closed gate: pinned
// cudaMemcpyAsync, kernels, events. A pageable copy, a cudaMemcpy or a synchronize would wait for the gate
// while the host is the one that must open it; the gate then times out and timed_out() reports it.
#include <chrono>
#include <string>

#include "benchmarks/common/cuda_check.hpp"
#include "kernels/gate.cuh"

namespace gpubench {

class CopyGate {
 public:
  explicit CopyGate(std::chrono::nanoseconds timeout = std::chrono::seconds(10)) : timeout_(timeout) {
    // Portable: the same flag is read by gate kernels on every GPU.
    GPUBENCH_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&flags_), sizeof(kernels::GateFlags),
                                      cudaHostAllocMapped | cudaHostAllocPortable));
    flags_->opened = 0;
    flags_->timed_out = 0;
  }
  // Opens the gate first, so no kernel is left spinning on memory about to be freed (cudaFreeHost waits
  // for the device, which would otherwise wait for the timeout).
  ~CopyGate() {
    open();
    cudaFreeHost(flags_);
  }
  CopyGate(const CopyGate&) = delete;
  CopyGate& operator=(const CopyGate&) = delete;

  // Enqueues a closed gate on `stream`, which must belong to the current device. Every gate closed since
  // the last open() waits for the next one.
  void close(cudaStream_t stream) {
    kernels::GateFlags* device_flags = nullptr;
    GPUBENCH_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_flags), flags_, 0));
    GPUBENCH_CUDA_CHECK(kernels::launch_gate(device_flags, opened_ + 1, static_cast<unsigned long long>(timeout_.count()),
                                             stream));
  }

  // Releases every gate closed so far.
  void open() {
    ++opened_;
    __atomic_store_n(&flags_->opened, opened_, __ATOMIC_RELEASE);
  }

  // True once any gate gave up waiting: whatever was timed behind it started early, so the timing is void.
  bool timed_out() const { return __atomic_load_n(&flags_->timed_out, __ATOMIC_ACQUIRE) != 0; }

 private:
  std::chrono::nanoseconds timeout_;
  kernels::GateFlags* flags_ = nullptr;
  unsigned int opened_ = 0;  // the last ticket opened
};

}  // namespace gpubench
