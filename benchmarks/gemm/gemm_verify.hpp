#pragma once
// Checks a GEMM's output on a sample: every (i, j) pair of a few rows and columns of D against a reference
// computed on the host in FP64 from the stored, already quantised inputs, fetching only the rows of A and the
// columns of B and D that the sample needs (each is contiguous in the TN layout: gemm_operands.hpp).
//
// Error measure: |D_ij - ref_ij| / S_ij with S_ij = sum_k |A_ik B_kj|, the scale of the classic dot-product
// error bound |computed - exact| <= K u S; it stays meaningful where mixed signs cancel and ref_ij is near 0.
// Tolerance (gemm_tolerance): twice the sum of
//   the output's rounding, u_out S (u_out = 2^-24 for FP32, 2^-11 for FP16, 2^-8 for BF16), and
//   the accumulation: products are exact in FP32 for TF32, FP16 and BF16 inputs (and rounded once for FP32),
//   and the K additions happen in FP32; Tensor Cores may truncate rather than round, so allow 2^-23 (one FP32
//   ulp) per addition: K 2^-23 S, the worst case over any summation order, split-K included.
//   FP8 on Hopper adds the products into an accumulator of about 14 significant bits between cuBLASLt's
//   promotions to FP32; that worst case is uselessly loose, so FP8 gets the statistical sqrt(K) 2^-13 S instead
//   (an error of 2^-14 per addition, random in sign).
// At 8192³ that is 2.0e-3 for fp32 and tf32, 2.9e-3 for fp16, 9.8e-3 for bf16 and 3.0e-2 for fp8_e4m3: far
// below what a wrong tile, a swapped operand or a corrupted element produces (an error of order S), and at
// least 15 times what an H200 was seen to make (worst of 256: 4.5e-4 bf16, 2.3e-4 fp8_e4m3, 3e-5 fp16, 1e-6 tf32).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/gemm/gemm_operands.hpp"
#include "benchmarks/gemm/gemm_problem.hpp"

namespace gpubench {

inline double gemm_tolerance(GemmPrecision precision, std::int64_t k) {
  const double output_rounding = precision == GemmPrecision::Fp32 || precision == GemmPrecision::Tf32 ? std::ldexp(1.0, -24)
                                 : precision == GemmPrecision::Fp16                                 ? std::ldexp(1.0, -11)
                                                                                                     : std::ldexp(1.0, -8);
  const double kd = static_cast<double>(k);
  const double accumulation = precision == GemmPrecision::Fp8E4m3 ? std::sqrt(kd) * std::ldexp(1.0, -13)
                                                                   : kd * std::ldexp(1.0, -23);
  return 2.0 * (output_rounding + accumulation);
}

// The rows and columns whose every pairing is checked.
struct GemmSample {
  std::vector<std::int64_t> rows;
  std::vector<std::int64_t> cols;
};

// The first and last row and column (edge tiles are where partial-tile bugs live) and random others, distinct,
// up to `per_side` of each: 16 x 16 = 256 checked elements by default.
inline GemmSample choose_sample(const GemmShape& shape, std::uint64_t seed, std::size_t per_side = 16) {
  std::mt19937_64 random(seed);
  const auto pick = [&random, per_side](std::int64_t extent) {
    std::set<std::int64_t> chosen{0, extent - 1};
    const std::size_t wanted = std::min<std::size_t>(per_side, static_cast<std::size_t>(extent));
    std::uniform_int_distribution<std::int64_t> any(0, extent - 1);
    while (chosen.size() < wanted) chosen.insert(any(random));
    return std::vector<std::int64_t>(chosen.begin(), chosen.end());
  };
  return {pick(shape.m), pick(shape.n)};
}

struct GemmCheck {
  std::size_t checked = 0;
  std::size_t wrong = 0;
  double worst_error = 0;  // the largest |D_ij - ref_ij| / S_ij seen (infinite for NaN or Inf)
  std::int64_t worst_row = 0;
  std::int64_t worst_col = 0;
  double tolerance = 0;

  std::string summary() const {
    std::ostringstream out;
    out << wrong << " of " << checked << " sampled elements off; worst relative error " << worst_error << " at ("
        << worst_row << ", " << worst_col << ") against a tolerance of " << tolerance;
    return out.str();
  }
};

// Exact decodings of the stored formats, written out here rather than borrowed from CUDA's conversions so the
// reference does not share code with what it checks.
inline double decode_fp32(const unsigned char* bytes) {
  float value;
  std::memcpy(&value, bytes, sizeof value);
  return value;
}

inline double decode_bf16(const unsigned char* bytes) {
  std::uint16_t half_bits;
  std::memcpy(&half_bits, bytes, sizeof half_bits);
  const std::uint32_t bits = static_cast<std::uint32_t>(half_bits) << 16;
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// IEEE binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits.
inline double decode_fp16(const unsigned char* bytes) {
  std::uint16_t bits;
  std::memcpy(&bits, bytes, sizeof bits);
  const double sign = (bits & 0x8000u) ? -1.0 : 1.0;
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  if (exponent == 0x1F) return mantissa == 0 ? sign * std::numeric_limits<double>::infinity() : std::nan("");
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

// OCP FP8 E4M3: 1 sign, 4 exponent (bias 7), 3 mantissa bits; no infinities, S.1111.111 is NaN.
inline double decode_fp8_e4m3(const unsigned char* bytes) {
  const unsigned bits = bytes[0];
  const double sign = (bits & 0x80u) ? -1.0 : 1.0;
  const int exponent = (bits >> 3) & 0xF;
  const int mantissa = bits & 0x7;
  if (exponent == 0xF && mantissa == 0x7) return std::nan("");
  if (exponent == 0) return sign * std::ldexp(mantissa, -9);
  return sign * std::ldexp(8 + mantissa, exponent - 10);
}

inline std::vector<double> decode_inputs(GemmPrecision precision, const std::vector<unsigned char>& bytes) {
  const std::size_t size = input_bytes(precision);
  std::vector<double> values(bytes.size() / size);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const unsigned char* element = bytes.data() + i * size;
    switch (precision) {
      case GemmPrecision::Fp32:
      case GemmPrecision::Tf32: values[i] = decode_fp32(element); break;
      case GemmPrecision::Fp16: values[i] = decode_fp16(element); break;
      case GemmPrecision::Bf16: values[i] = decode_bf16(element); break;
      case GemmPrecision::Fp8E4m3: values[i] = decode_fp8_e4m3(element); break;
    }
  }
  return values;
}

inline double decode_output(GemmPrecision precision, const unsigned char* element) {
  switch (precision) {
    case GemmPrecision::Fp32:
    case GemmPrecision::Tf32: return decode_fp32(element);
    case GemmPrecision::Fp16: return decode_fp16(element);
    case GemmPrecision::Bf16:
    case GemmPrecision::Fp8E4m3: return decode_bf16(element);
  }
  return std::nan("");
}

// Copies `count` contiguous elements of `size` bytes starting at element `first` of `device` to the host.
inline std::vector<unsigned char> fetch(const void* device, std::size_t first, std::size_t count, std::size_t size,
                                        cudaStream_t stream) {
  std::vector<unsigned char> host(count * size);
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(host.data(), static_cast<const unsigned char*>(device) + first * size,
                                      host.size(), cudaMemcpyDeviceToHost, stream));
  return host;
}

// Checks D after the work queued on `stream` (the GEMMs) has finished.
inline GemmCheck check_gemm(const GemmOperands& operands, const GemmSample& sample, cudaStream_t stream) {
  const GemmPrecision precision = operands.precision();
  const GemmShape& shape = operands.shape();
  const auto m = static_cast<std::size_t>(shape.m);
  const auto k = static_cast<std::size_t>(shape.k);
  std::vector<std::vector<unsigned char>> a_rows, b_cols, d_cols;
  for (std::int64_t row : sample.rows) {
    a_rows.push_back(fetch(operands.a(), static_cast<std::size_t>(row) * k, k, input_bytes(precision), stream));
  }
  for (std::int64_t col : sample.cols) {
    b_cols.push_back(fetch(operands.b(), static_cast<std::size_t>(col) * k, k, input_bytes(precision), stream));
    d_cols.push_back(fetch(operands.d(), static_cast<std::size_t>(col) * m, m, output_bytes(precision), stream));
  }
  GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));

  GemmCheck check;
  check.tolerance = gemm_tolerance(precision, shape.k);
  std::vector<std::vector<double>> b_values;
  for (const auto& bytes : b_cols) b_values.push_back(decode_inputs(precision, bytes));
  for (std::size_t r = 0; r < sample.rows.size(); ++r) {
    const std::vector<double> a = decode_inputs(precision, a_rows[r]);
    for (std::size_t c = 0; c < sample.cols.size(); ++c) {
      const std::vector<double>& b = b_values[c];
      double reference = 0;
      double scale = 0;
      for (std::size_t i = 0; i < k; ++i) {
        reference += a[i] * b[i];
        scale += std::fabs(a[i] * b[i]);
      }
      const std::size_t row = static_cast<std::size_t>(sample.rows[r]);
      const double actual = decode_output(precision, d_cols[c].data() + row * output_bytes(precision));
      const double difference = std::fabs(actual - reference);
      double error = scale > 0 ? difference / scale : (difference == 0 ? 0.0 : std::numeric_limits<double>::infinity());
      if (!std::isfinite(actual)) error = std::numeric_limits<double>::infinity();
      ++check.checked;
      if (error > check.tolerance) ++check.wrong;
      if (error > check.worst_error || check.checked == 1) {
        check.worst_error = error;
        check.worst_row = sample.rows[r];
        check.worst_col = sample.cols[c];
      }
    }
  }
  return check;
}

}  // namespace gpubench
