#pragma once
// A stream on one GPU whose work, each round, waits behind its own closed gate (copy_gate.hpp): timed from that
// gate's release to the end of what was enqueued between begin() and end(). Lanes on several GPUs behind one
// CopyGate start together; events of two GPUs cannot be compared, so each lane times itself.
#include <initializer_list>
#include <vector>

#include "benchmarks/common/copy_gate.hpp"
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/cuda_event.hpp"
#include "benchmarks/common/device_buffer.hpp"

namespace gpubench {

class GatedLane {
 public:
  // Creates the stream and events on `device`, which it leaves current.
  explicit GatedLane(int device) : device_(make_current(device)) {}
  GatedLane(const GatedLane&) = delete;
  GatedLane& operator=(const GatedLane&) = delete;

  cudaStream_t stream() const { return stream_.get(); }

  // Closes the gate on this lane's stream and leaves its GPU current for the work enqueued next.
  void begin(CopyGate& gate) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(device_));
    gate.close(stream_.get());
    released_.record(stream_.get());
  }
  void end() { done_.record(stream_.get()); }
  // Waits for the round and returns this lane's seconds.
  double seconds() const { return done_.seconds_since(released_); }

 private:
  // Makes `device` current before the members after device_ are created.
  static int make_current(int device) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(device));
    return device;
  }

  int device_;
  CudaStream stream_;
  CudaEvent released_;
  CudaEvent done_;
};

// Waits for each lane's round, in order, and returns their seconds.
inline std::vector<double> seconds_of(std::initializer_list<const GatedLane*> lanes) {
  std::vector<double> seconds;
  for (const GatedLane* lane : lanes) seconds.push_back(lane->seconds());
  return seconds;
}

}  // namespace gpubench
