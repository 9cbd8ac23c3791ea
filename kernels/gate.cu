#include "kernels/gate.cuh"

namespace gpubench::kernels {
namespace {

__device__ unsigned long long global_time_ns() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

__global__ void gate_kernel(GateFlags* flags, unsigned int ticket, unsigned long long timeout_ns) {
  const volatile unsigned int* opened = &flags->opened;
  const unsigned long long start = global_time_ns();
  // Signed difference, so that the comparison survives the ticket counter wrapping around.
  while (static_cast<int>(*opened - ticket) < 0) {
    if (global_time_ns() - start > timeout_ns) {
      *static_cast<volatile unsigned int*>(&flags->timed_out) = 1;
      __threadfence_system();
      return;
    }
    __nanosleep(256);  // each poll is a read across PCIe; no need to hammer it
  }
}

}  // namespace

cudaError_t launch_gate(GateFlags* flags, unsigned int ticket, unsigned long long timeout_ns, cudaStream_t stream) {
  gate_kernel<<<1, 1, 0, stream>>>(flags, ticket, timeout_ns);
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
