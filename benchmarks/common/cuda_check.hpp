#pragma once
// Every CUDA call is checked; a failure becomes an exception that names the call, the error and the line,
// and the benchmark that caught it records a failure with that reason.
#include <cuda_runtime.h>

#include "benchmarks/common/api_error.hpp"

namespace gpubench {

using CudaError = ApiError<cudaError_t, cudaGetErrorName, cudaGetErrorString>;

}  // namespace gpubench

#define GPUBENCH_CUDA_CHECK(call) GPUBENCH_CHECK_STATUS(call, cudaError_t, cudaSuccess, ::gpubench::CudaError)
