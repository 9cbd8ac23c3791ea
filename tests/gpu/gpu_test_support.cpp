#include "tests/gpu/gpu_test_support.hpp"

#include <cuda_runtime.h>

namespace gpubench::testing {

std::string no_gpu_reason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) return std::string("no usable GPU: ") + cudaGetErrorName(status) + ": " + cudaGetErrorString(status);
  if (count == 0) return "no usable GPU: CUDA sees no device";
  return "";
}

}  // namespace gpubench::testing
