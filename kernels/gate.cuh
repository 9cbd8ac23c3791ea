#pragma once
// A gate: a one-thread kernel that spins until the host opens it, so that copies enqueued behind it (on its
// stream, or on streams and GPUs that wait for it) start together when the host says so, and the time the
// host took to enqueue them is not measured.
#include <cuda_runtime.h>

namespace gpubench::kernels {

// Lives in mapped pinned host memory: the host writes `opened`, the gate kernels read it over PCIe.
struct GateFlags {
  unsigned int opened;     // the last ticket the host opened; only ever increases (modulo 2^32)
  unsigned int timed_out;  // set to 1 by a gate kernel that gave up waiting
};

// Enqueues a gate on `stream` that waits until flags->opened reaches `ticket`. So that a mistake on the host
// (a blocking call made while the gate is closed) cannot hang the GPU, the kernel gives up after
// `timeout_ns`, sets flags->timed_out and lets the work behind it run. `flags` is the device pointer.
cudaError_t launch_gate(GateFlags* flags, unsigned int ticket, unsigned long long timeout_ns, cudaStream_t stream);

}  // namespace gpubench::kernels
