#pragma once
// The launch family's kernels: a one-thread kernel that leaves evidence it ran (so N launches can be counted),
// and a kernel that tells the host the moment it starts by writing a flag into mapped pinned host memory.
#include <cstdint>
#include <cuda_runtime.h>

namespace gpubench::kernels {

// Launches one block of one thread that adds 1 to *counter (device memory). Stream order serialises the
// launches, so after N of them the counter has grown by exactly N.
cudaError_t launch_increment(unsigned long long* counter, cudaStream_t stream);

// Launches one thread that stores `token` into *flag, a device pointer to mapped pinned host memory, and
// pushes the store out to the host at once.
cudaError_t launch_write_flag(std::uint32_t* flag, std::uint32_t token, cudaStream_t stream);

}  // namespace gpubench::kernels
