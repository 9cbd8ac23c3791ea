#pragma once
// An owned CUDA event, for benchmarks that record several events per GPU (one start shared by many streams,
// one stop per stream) where EventTimer's single pair is not enough.
#include <utility>

#include "benchmarks/common/cuda_check.hpp"

namespace gpubench {

class CudaEvent {
 public:
  explicit CudaEvent(unsigned flags = cudaEventDefault) { GPUBENCH_CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags)); }
  ~CudaEvent() {
    if (event_ != nullptr) cudaEventDestroy(event_);
  }
  CudaEvent(CudaEvent&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  CudaEvent& operator=(CudaEvent&&) = delete;

  cudaEvent_t get() const { return event_; }
  void record(cudaStream_t stream) { GPUBENCH_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  // Waits for this event and returns the seconds since `start`, recorded on the same GPU.
  double seconds_since(const CudaEvent& start) const {
    GPUBENCH_CUDA_CHECK(cudaEventSynchronize(event_));
    float ms = 0.0f;
    GPUBENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
    return static_cast<double>(ms) * 1e-3;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace gpubench
