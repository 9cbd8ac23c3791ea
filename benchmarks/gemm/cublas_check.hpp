#pragma once
// Every cuBLASLt call is checked like every CUDA call: a failure becomes an exception naming the call, the
// status and the line, and the benchmark that caught it records a failure with that reason.
#include <cublasLt.h>

#include <stdexcept>
#include <string>

namespace gpubench {

class CublasError : public std::runtime_error {
 public:
  CublasError(const char* call, cublasStatus_t status, const char* file, int line)
      : std::runtime_error(std::string(call) + " failed: " + cublasLtGetStatusName(status) + " (" +
                           cublasLtGetStatusString(status) + ") at " + file + ":" + std::to_string(line)),
        status_(status) {}
  cublasStatus_t status() const { return status_; }

 private:
  cublasStatus_t status_;
};

}  // namespace gpubench

#define GPUBENCH_CUBLAS_CHECK(call)                                                    \
  do {                                                                                 \
    const cublasStatus_t gpubench_cublas_status_ = (call);                             \
    if (gpubench_cublas_status_ != CUBLAS_STATUS_SUCCESS) {                            \
      throw ::gpubench::CublasError(#call, gpubench_cublas_status_, __FILE__, __LINE__); \
    }                                                                                  \
  } while (false)
