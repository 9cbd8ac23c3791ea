#include "kernels/launch.cuh"

namespace gpubench::kernels {
namespace {

__global__ void increment_kernel(unsigned long long* counter) { *counter += 1; }

__global__ void write_flag_kernel(volatile std::uint32_t* flag, std::uint32_t token) {
  *flag = token;
  __threadfence_system();  // the host is polling: do not leave the store waiting behind anything
}

}  // namespace

cudaError_t launch_increment(unsigned long long* counter, cudaStream_t stream) {
  increment_kernel<<<1, 1, 0, stream>>>(counter);
  return cudaGetLastError();
}

cudaError_t launch_write_flag(std::uint32_t* flag, std::uint32_t token, cudaStream_t stream) {
  write_flag_kernel<<<1, 1, 0, stream>>>(flag, token);
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
