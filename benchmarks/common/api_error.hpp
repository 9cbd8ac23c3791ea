#pragma once
// A failed call into a GPU library (the CUDA runtime, cuBLASLt): an exception whose message names the call, the
// status it returned (the library's name and description of it) and the line, so that the benchmark that
// catches it records a failure with that reason. cuda_check.hpp and gemm/cublas_check.hpp name one per library.
#include <stdexcept>
#include <string>

namespace gpubench {

template <class Status, const char* (*status_name)(Status), const char* (*status_description)(Status)>
class ApiError : public std::runtime_error {
 public:
  ApiError(const char* call, Status status, const char* file, int line)
      : std::runtime_error(std::string(call) + " failed: " + status_name(status) + " (" + status_description(status) +
                           ") at " + file + ":" + std::to_string(line)),
        status_(status) {}
  Status status() const { return status_; }

 private:
  Status status_;
};

}  // namespace gpubench

// Throws Error(#call, status, __FILE__, __LINE__) when `call`, returning a `Status`, returns other than `success`.
#define GPUBENCH_CHECK_STATUS(call, Status, success, Error)     \
  do {                                                          \
    const Status gpubench_status_ = (call);                     \
    if (gpubench_status_ != (success)) {                        \
      throw Error(#call, gpubench_status_, __FILE__, __LINE__); \
    }                                                           \
  } while (false)
