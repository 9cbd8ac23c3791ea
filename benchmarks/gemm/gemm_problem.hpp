#pragma once
// What one GEMM of this family is: a precision and a shape, D (M x N) = A (M x K) · B (K x N), and the
// names they take in metric ids ("gemm/bf16/8192x8192x8192"). Plain C++, usable by CPU tests.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace gpubench {

// Inputs, accumulation and output of each variant:
//   fp32      FP32 in, FP32 out, FP32 arithmetic on the CUDA cores (pedantic: no Tensor Cores, no TF32)
//   tf32      FP32 in, FP32 out, inputs rounded to TF32 on the Tensor Cores, FP32 accumulation
//   fp16      FP16 in, FP16 out, FP32 accumulation
//   bf16      BF16 in, BF16 out, FP32 accumulation
//   fp8_e4m3  E4M3 in, BF16 out, FP32 accumulation (periodically promoted: cuBLASLt's default, no fast accumulation)
enum class GemmPrecision { Fp32, Tf32, Fp16, Bf16, Fp8E4m3 };

inline constexpr GemmPrecision kGemmPrecisions[] = {GemmPrecision::Fp32, GemmPrecision::Tf32, GemmPrecision::Fp16,
                                                    GemmPrecision::Bf16, GemmPrecision::Fp8E4m3};

constexpr const char* precision_name(GemmPrecision precision) {
  switch (precision) {
    case GemmPrecision::Fp32: return "fp32";
    case GemmPrecision::Tf32: return "tf32";
    case GemmPrecision::Fp16: return "fp16";
    case GemmPrecision::Bf16: return "bf16";
    case GemmPrecision::Fp8E4m3: return "fp8_e4m3";
  }
  return "unknown";
}

// Bytes of one element of A and B as stored (TF32 inputs are stored as FP32).
constexpr std::size_t input_bytes(GemmPrecision precision) {
  switch (precision) {
    case GemmPrecision::Fp32:
    case GemmPrecision::Tf32: return 4;
    case GemmPrecision::Fp16:
    case GemmPrecision::Bf16: return 2;
    case GemmPrecision::Fp8E4m3: return 1;
  }
  return 0;
}

// Bytes of one element of D: FP32 for fp32 and tf32, FP16 for fp16, BF16 for bf16 and fp8_e4m3.
constexpr std::size_t output_bytes(GemmPrecision precision) {
  return precision == GemmPrecision::Fp32 || precision == GemmPrecision::Tf32 ? 4 : 2;
}

// Why a GPU of this compute capability cannot run the precision on its Tensor Cores; empty when it can.
// TF32 and BF16 arrived with Ampere (8.0), FP8 with Ada (8.9).
inline std::optional<std::string> unsupported_reason(int major, int minor, GemmPrecision precision) {
  const int capability = major * 10 + minor;
  const std::string have = " (this GPU is " + std::to_string(major) + "." + std::to_string(minor) + ")";
  if ((precision == GemmPrecision::Tf32 || precision == GemmPrecision::Bf16) && capability < 80) {
    return std::string(precision_name(precision)) + " Tensor Core GEMM needs compute capability 8.0 or newer" + have;
  }
  if (precision == GemmPrecision::Fp8E4m3 && capability < 89) {
    return std::string("FP8 Tensor Core GEMM needs compute capability 8.9 or newer") + have;
  }
  return std::nullopt;
}

struct GemmShape {
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
};

constexpr bool operator==(const GemmShape& a, const GemmShape& b) { return a.m == b.m && a.n == b.n && a.k == b.k; }

// "MxNxK", the params component of the metric id.
inline std::string shape_name(const GemmShape& shape) {
  return std::to_string(shape.m) + "x" + std::to_string(shape.n) + "x" + std::to_string(shape.k);
}

// A multiply-add counts as two floating-point operations, as everyone counts GEMM.
constexpr double gemm_flops(const GemmShape& shape) {
  return 2.0 * static_cast<double>(shape.m) * static_cast<double>(shape.n) * static_cast<double>(shape.k);
}

}  // namespace gpubench
