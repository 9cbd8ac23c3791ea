#pragma once
// The sync family's kernels. On the device: one multi-step shared-memory stencil written twice, with only the
// barriers it needs (light) and with a redundant __syncthreads() after every shared-memory operation (heavy);
// the two give bit-identical outputs. For the host-side variants: a one-thread step of a hash chain, whose
// final value depends on the number and the order of the launches, whatever synchronisation separated them.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

namespace gpubench::kernels {

enum class SyncVariant { Light, Heavy };

const char* sync_variant_name(SyncVariant variant);  // "light", "heavy"

// Smoothing steps applied in shared memory per launch, and threads per block. Each block loads
// kSmoothBlock consecutive elements and writes the kSmoothBlock - 2 * kSmoothSteps in the middle: every
// step, the tile's edges lose the neighbour they would need.
inline constexpr int kSmoothSteps = 8;
inline constexpr int kSmoothBlock = 256;

// output = S applied kSmoothSteps times to input, where S(v)[i] = 0.25 * ((v[i-1] + v[i+1]) + (v[i] + v[i]))
// rounded in float in exactly that order, and v is zero outside [0, count). input and output must not overlap.
cudaError_t launch_smooth(SyncVariant variant, const float* input, float* output, std::size_t count,
                          cudaStream_t stream);

// One thread sets *state = mix64(*state ^ step) (mix64 from random_fill.cuh).
cudaError_t launch_chain_step(std::uint64_t* state, std::uint64_t step, cudaStream_t stream);

}  // namespace gpubench::kernels
