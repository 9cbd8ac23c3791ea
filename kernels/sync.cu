#include "kernels/sync.cuh"

#include <climits>

#include "kernels/random_fill.cuh"

namespace gpubench::kernels {
namespace {

constexpr int kOutputsPerBlock = kSmoothBlock - 2 * kSmoothSteps;

// A barrier only the heavy variant has: no thread reads, after it, anything another thread wrote before it.
template <SyncVariant Variant>
__device__ __forceinline__ void redundant_barrier() {
  if constexpr (Variant == SyncVariant::Heavy) __syncthreads();
}

// Explicit roundings, so the compiler cannot contract or reorder them and a host reference can match bit for bit.
__device__ __forceinline__ float smooth(float left, float centre, float right) {
  return __fmul_rn(0.25f, __fadd_rn(__fadd_rn(left, right), __fadd_rn(centre, centre)));
}

template <SyncVariant Variant>
__global__ void __launch_bounds__(kSmoothBlock) smooth_kernel(const float* __restrict__ input,
                                                             float* __restrict__ output, long long count) {
  __shared__ float tile[2][kSmoothBlock];
  const int t = static_cast<int>(threadIdx.x);
  const long long index = static_cast<long long>(blockIdx.x) * kOutputsPerBlock - kSmoothSteps + t;
  const bool inside = index >= 0 && index < count;
  tile[0][t] = inside ? input[index] : 0.0f;
  __syncthreads();  // needed: the first step reads the neighbours' elements
#pragma unroll
  for (int step = 1; step <= kSmoothSteps; ++step) {
    const float* from = tile[(step - 1) % 2];
    float* to = tile[step % 2];
    // Position t needs both neighbours' values from the previous step, so the valid part of the tile shrinks
    // by one element at each end per step; positions that fall out are never read again.
    const bool valid = t >= step && t < kSmoothBlock - step;
    float left = 0.0f;
    float centre = 0.0f;
    float right = 0.0f;
    if (valid) left = from[t - 1];
    redundant_barrier<Variant>();
    if (valid) centre = from[t];
    redundant_barrier<Variant>();
    if (valid) right = from[t + 1];
    redundant_barrier<Variant>();
    const float value = inside ? smooth(left, centre, right) : 0.0f;  // zero outside the array at every step
    redundant_barrier<Variant>();
    if (step < kSmoothSteps) {
      if (valid) to[t] = value;
      __syncthreads();  // needed: the next step reads the neighbours' new values and overwrites `from`
    } else {
      // The last step's valid positions are exactly this block's outputs; each thread writes its own.
      if (valid && inside) output[index] = value;
      redundant_barrier<Variant>();
    }
  }
}

__global__ void chain_step_kernel(std::uint64_t* state, std::uint64_t step) { *state = mix64(*state ^ step); }

}  // namespace

const char* sync_variant_name(SyncVariant variant) {
  return variant == SyncVariant::Light ? "light" : "heavy";
}

cudaError_t launch_smooth(SyncVariant variant, const float* input, float* output, std::size_t count,
                          cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  const std::size_t blocks = (count + kOutputsPerBlock - 1) / kOutputsPerBlock;
  if (blocks > static_cast<std::size_t>(INT_MAX)) return cudaErrorInvalidValue;
  const long long n = static_cast<long long>(count);
  if (variant == SyncVariant::Light) {
    smooth_kernel<SyncVariant::Light><<<static_cast<unsigned>(blocks), kSmoothBlock, 0, stream>>>(input, output, n);
  } else {
    smooth_kernel<SyncVariant::Heavy><<<static_cast<unsigned>(blocks), kSmoothBlock, 0, stream>>>(input, output, n);
  }
  return cudaGetLastError();
}

cudaError_t launch_chain_step(std::uint64_t* state, std::uint64_t step, cudaStream_t stream) {
  chain_step_kernel<<<1, 1, 0, stream>>>(state, step);
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
