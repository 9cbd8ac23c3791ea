#pragma once
// An owned CUDA event, for benchmarks that record several events per GPU (one start shared by many streams,
// one stop per stream) where EventTimer's single pair is not enough.
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/detail/cuda_handle.hpp"

namespace gpubench {

class CudaEvent {
 public:
  explicit CudaEvent(unsigned flags = cudaEventDefault) : event_(create(flags)) {}

  cudaEvent_t get() const { return event_.get(); }
  void record(cudaStream_t stream) { GPUBENCH_CUDA_CHECK(cudaEventRecord(event_.get(), stream)); }
  // Waits for this event and returns the seconds since `start`, recorded on the same GPU.
  double seconds_since(const CudaEvent& start) const {
    GPUBENCH_CUDA_CHECK(cudaEventSynchronize(event_.get()));
    float ms = 0.0f;
    GPUBENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), event_.get()));
    return static_cast<double>(ms) * 1e-3;
  }

 private:
  static cudaEvent_t create(unsigned flags) {
    cudaEvent_t event = nullptr;
    GPUBENCH_CUDA_CHECK(cudaEventCreateWithFlags(&event, flags));
    return event;
  }

  detail::CudaHandle<cudaEvent_t, cudaEventDestroy> event_;
};

}  // namespace gpubench
