#pragma once
// Times GPU work on a stream with a pair of CUDA events: the only clock that sees when the work itself ran.
#include "benchmarks/common/cuda_check.hpp"

namespace gpubench {

class EventTimer {
 public:
  EventTimer() {
    GPUBENCH_CUDA_CHECK(cudaEventCreate(&start_));
    GPUBENCH_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start(cudaStream_t stream) { GPUBENCH_CUDA_CHECK(cudaEventRecord(start_, stream)); }
  void stop(cudaStream_t stream) { GPUBENCH_CUDA_CHECK(cudaEventRecord(stop_, stream)); }

  // Records the start event on `stream`, calls `enqueue` to put the work to time on it, records the stop
  // event, and returns the seconds between the two once the work is done.
  template <class Enqueue>
  double time(cudaStream_t stream, Enqueue&& enqueue) {
    start(stream);
    enqueue();
    stop(stream);
    return seconds();
  }

  // Waits for the stop event and returns the time between the two events.
  double seconds() const {
    GPUBENCH_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    GPUBENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return static_cast<double>(ms) * 1e-3;
  }

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace gpubench
