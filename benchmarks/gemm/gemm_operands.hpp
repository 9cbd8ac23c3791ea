#pragma once
// The device operands of one GEMM, D (M x N) = A (M x K) · B (K x N), in the "TN" layout every precision here
// uses (column-major, cuBLAS's convention):
//   A is stored K x M, leading dimension K, and used transposed: row i of A is K contiguous elements;
//   B is stored K x N, leading dimension K: column j of B is K contiguous elements;
//   D is M x N, leading dimension M: column j of D is M contiguous elements.
// TN is the only layout cuBLASLt's FP8 kernels accept on Ada and Hopper, and K-major operands are what the
// Tensor Cores read natively (TF32 has no transposed-operand form), so all precisions run it and compare on
// equal terms. It also makes every row of A and column of B that the verifier needs one contiguous copy.
#include <cstddef>
#include <cstdint>

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/gemm/gemm_problem.hpp"
#include "kernels/gemm_reference.cuh"

namespace gpubench {

inline kernels::GemmElement operand_element(GemmPrecision precision) {
  switch (precision) {
    case GemmPrecision::Fp32: return kernels::GemmElement::Fp32;
    case GemmPrecision::Tf32: return kernels::GemmElement::Tf32;
    case GemmPrecision::Fp16: return kernels::GemmElement::Fp16;
    case GemmPrecision::Bf16: return kernels::GemmElement::Bf16;
    case GemmPrecision::Fp8E4m3: return kernels::GemmElement::Fp8E4m3;
  }
  return kernels::GemmElement::Fp32;
}

// Device bytes of A, B and D together.
inline std::size_t operand_bytes(GemmPrecision precision, const GemmShape& shape) {
  const auto m = static_cast<std::size_t>(shape.m);
  const auto n = static_cast<std::size_t>(shape.n);
  const auto k = static_cast<std::size_t>(shape.k);
  return (m * k + k * n) * input_bytes(precision) + m * n * output_bytes(precision);
}

class GemmOperands {
 public:
  // A and B drawn from the random streams `seed` and `seed + 1`; D filled with NaN.
  GemmOperands(GemmPrecision precision, const GemmShape& shape, std::uint64_t seed, cudaStream_t stream)
      : precision_(precision),
        shape_(shape),
        a_(static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.k) * input_bytes(precision)),
        b_(static_cast<std::size_t>(shape.k) * static_cast<std::size_t>(shape.n) * input_bytes(precision)),
        d_(static_cast<std::size_t>(shape.m) * static_cast<std::size_t>(shape.n) * output_bytes(precision)) {
    const kernels::GemmElement element = operand_element(precision);
    GPUBENCH_CUDA_CHECK(kernels::fill_random_operand(a_.get(), a_.count() / input_bytes(precision), element, seed, stream));
    GPUBENCH_CUDA_CHECK(kernels::fill_random_operand(b_.get(), b_.count() / input_bytes(precision), element, seed + 1, stream));
    poison_output(stream);
  }

  // All-ones bytes are NaN in FP32, FP16 and BF16: an element no launch wrote cannot pass verification.
  void poison_output(cudaStream_t stream) const { GPUBENCH_CUDA_CHECK(cudaMemsetAsync(d_.get(), 0xFF, d_.bytes(), stream)); }

  GemmPrecision precision() const { return precision_; }
  const GemmShape& shape() const { return shape_; }
  const void* a() const { return a_.get(); }
  const void* b() const { return b_.get(); }
  void* d() const { return d_.get(); }

 private:
  GemmPrecision precision_;
  GemmShape shape_;
  DeviceBuffer<std::byte> a_;
  DeviceBuffer<std::byte> b_;
  DeviceBuffer<std::byte> d_;
};

}  // namespace gpubench
