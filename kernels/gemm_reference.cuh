#pragma once
// Random GEMM operands drawn on the device and rounded to the precision under test, so that what the GEMM
// multiplies is exactly what the verifier's FP64 reference reads back. Values are random_float(seed, index)
// uniform in [-1, 1), then rounded: mixed signs, so sums cancel as real data's do.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

namespace gpubench::kernels {

// How an operand is stored: Tf32 is FP32 storage holding values with TF32's 10 explicit mantissa bits
// (rounded to nearest even), so a Tensor Core's TF32 conversion of them is exact.
enum class GemmElement { Fp32, Tf32, Fp16, Bf16, Fp8E4m3 };

// Fills `count` elements of `data` (float, float, __half, __nv_bfloat16 or __nv_fp8_e4m3 as `element` says).
cudaError_t fill_random_operand(void* data, std::size_t count, GemmElement element, std::uint64_t seed,
                                cudaStream_t stream);

}  // namespace gpubench::kernels
