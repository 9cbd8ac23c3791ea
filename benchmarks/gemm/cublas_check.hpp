#pragma once
// Every cuBLASLt call is checked like every CUDA call: a failure becomes an exception naming the call, the
// status and the line, and the benchmark that caught it records a failure with that reason.
#include <cublasLt.h>

#include "benchmarks/common/api_error.hpp"

namespace gpubench {

using CublasError = ApiError<cublasStatus_t, cublasLtGetStatusName, cublasLtGetStatusString>;

}  // namespace gpubench

#define GPUBENCH_CUBLAS_CHECK(call) \
  GPUBENCH_CHECK_STATUS(call, cublasStatus_t, CUBLAS_STATUS_SUCCESS, ::gpubench::CublasError)
