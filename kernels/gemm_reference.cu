#include "kernels/gemm_reference.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "kernels/random_fill.cuh"

namespace gpubench::kernels {
namespace {

// Rounds to TF32 (10 explicit mantissa bits) to nearest, ties to even; the inputs here are finite and far
// from overflow, so adding half an ulp of TF32 to the bit pattern cannot carry into the sign.
__device__ float round_to_tf32(float x) {
  std::uint32_t bits = __float_as_uint(x);
  bits += 0xFFFu + ((bits >> 13) & 1u);
  return __uint_as_float(bits & 0xFFFFE000u);
}

struct ToFp32 {
  __device__ float operator()(float x) const { return x; }
};
struct ToTf32 {
  __device__ float operator()(float x) const { return round_to_tf32(x); }
};
struct ToFp16 {
  __device__ __half operator()(float x) const { return __float2half_rn(x); }
};
struct ToBf16 {
  __device__ __nv_bfloat16 operator()(float x) const { return __float2bfloat16_rn(x); }
};
struct ToFp8E4m3 {
  __device__ __nv_fp8_storage_t operator()(float x) const { return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3); }
};

template <class Convert, class T>
__global__ void fill_random_operand_kernel(T* data, std::size_t count, std::uint64_t seed) {
  const Convert convert;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    data[i] = convert(random_float(seed, i, -1.0f, 1.0f));
  }
}

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 65536;

template <class Convert, class T>
cudaError_t launch_fill(void* data, std::size_t count, std::uint64_t seed, cudaStream_t stream) {
  const std::size_t blocks = (count + kThreads - 1) / kThreads;
  const int grid = static_cast<int>(blocks == 0 ? 1 : (blocks < kMaxBlocks ? blocks : kMaxBlocks));
  fill_random_operand_kernel<Convert><<<grid, kThreads, 0, stream>>>(static_cast<T*>(data), count, seed);
  return cudaGetLastError();
}

}  // namespace

cudaError_t fill_random_operand(void* data, std::size_t count, GemmElement element, std::uint64_t seed,
                                cudaStream_t stream) {
  switch (element) {
    case GemmElement::Fp32: return launch_fill<ToFp32, float>(data, count, seed, stream);
    case GemmElement::Tf32: return launch_fill<ToTf32, float>(data, count, seed, stream);
    case GemmElement::Fp16: return launch_fill<ToFp16, __half>(data, count, seed, stream);
    case GemmElement::Bf16: return launch_fill<ToBf16, __nv_bfloat16>(data, count, seed, stream);
    case GemmElement::Fp8E4m3: return launch_fill<ToFp8E4m3, __nv_fp8_storage_t>(data, count, seed, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace gpubench::kernels
