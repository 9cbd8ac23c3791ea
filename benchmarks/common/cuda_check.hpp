#pragma once
// Every CUDA call is checked; a failure becomes an exception that names the call, the error and the line,
// and the benchmark that caught it records a failure with that reason.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace gpubench {

class CudaError : public std::runtime_error {
 public:
  CudaError(const char* call, cudaError_t status, const char* file, int line)
      : std::runtime_error(std::string(call) + " failed: " + cudaGetErrorName(status) + " (" +
                           cudaGetErrorString(status) + ") at " + file + ":" + std::to_string(line)),
        status_(status) {}
  cudaError_t status() const { return status_; }

 private:
  cudaError_t status_;
};

}  // namespace gpubench

#define GPUBENCH_CUDA_CHECK(call)                                                      \
  do {                                                                                 \
    const cudaError_t gpubench_status_ = (call);                                       \
    if (gpubench_status_ != cudaSuccess) {                                             \
      throw ::gpubench::CudaError(#call, gpubench_status_, __FILE__, __LINE__);        \
    }                                                                                  \
  } while (false)
