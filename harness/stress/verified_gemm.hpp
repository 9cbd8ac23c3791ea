#pragma once
// The load every stress mode runs: BF16 Tensor Core GEMMs (cuBLAS, FP32 accumulate) on the current device, each
// product compared word for word with a reference product that was itself checked against FP64 on the host.
#include <cublas_v2.h>
#include <cuda_bf16.h>

#include <cstddef>
#include <vector>

#include "benchmarks/common/device_buffer.hpp"

namespace gpubench {

// 8192^3 BF16 is large enough to keep every Tensor Core busy at full power, and its operands (128 MiB each)
// leave most of the memory to the memory test.
inline constexpr int kStressGemmSize = 8192;
inline constexpr double kStressGemmFlops = 2.0 * kStressGemmSize * double(kStressGemmSize) * kStressGemmSize;

// A and B (random in [0.5, 1.5), seeded by the device) and their product, checked on the host at sampled
// positions before any load runs. Shared read-only by every lane of the device.
class GemmOperands {
 public:
  explicit GemmOperands(int device);
  const __nv_bfloat16* a() const { return a_.get(); }
  const __nv_bfloat16* b() const { return b_.get(); }
  const __nv_bfloat16* reference() const { return reference_.get(); }

 private:
  DeviceBuffer<__nv_bfloat16> a_, b_, reference_;
};

// One stream of verified GEMMs with its own cuBLAS handle (handles are not shared between streams in flight)
// and output. `enqueue` queues GEMMs, each followed by its comparison; `finish` waits and returns how many
// 8-byte words of each differed from the reference.
class GemmLane {
 public:
  static constexpr int kMaxQueued = 1024;
  explicit GemmLane(const GemmOperands& operands);
  ~GemmLane();
  GemmLane(const GemmLane&) = delete;
  GemmLane& operator=(const GemmLane&) = delete;

  void enqueue(int gemms);
  std::vector<unsigned long long> finish();
  cudaStream_t stream() const { return stream_.get(); }
  // Test-only: the next enqueue flips the lowest bit of one element of its last product, as a faulty Tensor Core
  // would, before that product's comparison runs (waiting for the stream to do it).
  void corrupt_next_check();

 private:
  const GemmOperands& operands_;
  CudaStream stream_;
  cublasHandle_t blas_ = nullptr;
  DeviceBuffer<__nv_bfloat16> out_;
  DeviceBuffer<unsigned long long> mismatches_;
  int queued_ = 0;
  bool corrupt_ = false;
};

}  // namespace gpubench
