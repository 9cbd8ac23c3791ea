// Dense GEMM peaks from SM count, SM clock and the per-SM rate table, checked against NVIDIA's published figures.
#include <gtest/gtest.h>

#include "benchmarks/gemm/gemm_peaks.hpp"
#include "benchmarks/gemm/gemm_problem.hpp"

namespace gpubench {
namespace {

// The arithmetic is usable at compile time.
static_assert(peak_tflops(1, 1e3, 1e6) == 1.0);  // 1 SM at 1 MHz doing 1e6 FLOP per clock
static_assert(!gemm_peak_tflops(7, 5, 40, 1590000, GemmPrecision::Fp16).has_value());

TEST(GemmPeak, H100SxmMatchesTheWhitepaper) {
  // 132 SMs: BF16/FP16 989.4, TF32 494.7, FP8 1978.9 TFLOPS dense at 1830 MHz; FP32 66.9 at 1980 MHz.
  EXPECT_NEAR(*gemm_peak_tflops(9, 0, 132, 1830000, GemmPrecision::Bf16), 989.4, 0.1);
  EXPECT_NEAR(*gemm_peak_tflops(9, 0, 132, 1830000, GemmPrecision::Fp16), 989.4, 0.1);
  EXPECT_NEAR(*gemm_peak_tflops(9, 0, 132, 1830000, GemmPrecision::Tf32), 494.7, 0.1);
  EXPECT_NEAR(*gemm_peak_tflops(9, 0, 132, 1830000, GemmPrecision::Fp8E4m3), 1978.9, 0.1);
  EXPECT_NEAR(*gemm_peak_tflops(9, 0, 132, 1980000, GemmPrecision::Fp32), 66.9, 0.1);
}

TEST(GemmPeak, H200ReportsItsMaximumBoostClock) {
  // cudaDevAttrClockRate reads 1980 MHz on an H200 SXM: the peak the benchmark reports scales with it.
  EXPECT_NEAR(*gemm_peak_tflops(9, 0, 132, 1980000, GemmPrecision::Bf16), 1070.6, 0.1);
}

TEST(GemmPeak, OtherArchitecturesMatchTheirWhitepapers) {
  EXPECT_NEAR(*gemm_peak_tflops(8, 0, 108, 1410000, GemmPrecision::Fp32), 19.5, 0.05);   // A100
  EXPECT_NEAR(*gemm_peak_tflops(8, 0, 108, 1410000, GemmPrecision::Tf32), 155.9, 0.1);
  EXPECT_NEAR(*gemm_peak_tflops(8, 0, 108, 1410000, GemmPrecision::Bf16), 311.9, 0.1);
  EXPECT_NEAR(*gemm_peak_tflops(8, 6, 84, 1800000, GemmPrecision::Fp16), 154.8, 0.1);    // RTX A6000
  EXPECT_NEAR(*gemm_peak_tflops(8, 9, 142, 2505000, GemmPrecision::Fp8E4m3), 728.5, 0.1);  // RTX 6000 Ada
  EXPECT_NEAR(*gemm_peak_tflops(8, 9, 142, 2505000, GemmPrecision::Fp32), 91.1, 0.1);
  EXPECT_NEAR(*gemm_peak_tflops(12, 0, 188, 2617000, GemmPrecision::Bf16), 503.8, 0.1);  // RTX PRO 6000 Blackwell
  // B200: twice Hopper per SM; 148 SMs at 1965 MHz.
  EXPECT_DOUBLE_EQ(*gemm_peak_tflops(10, 0, 148, 1965000, GemmPrecision::Bf16),
                   2.0 * *gemm_peak_tflops(9, 0, 148, 1965000, GemmPrecision::Bf16));
}

TEST(GemmPeak, NoPeakWhereTheTableHasNone) {
  EXPECT_FALSE(gemm_peak_tflops(8, 0, 108, 1410000, GemmPrecision::Fp8E4m3));  // A100 has no FP8
  EXPECT_FALSE(gemm_peak_tflops(8, 6, 84, 1800000, GemmPrecision::Fp8E4m3));
  EXPECT_FALSE(gemm_peak_tflops(7, 0, 80, 1530000, GemmPrecision::Fp32));  // not in the table
  EXPECT_FALSE(gemm_peak_tflops(10, 3, 148, 1965000, GemmPrecision::Bf16));
}

TEST(GemmPeak, TensorCoreSpeedupOverFp32OnHopperIsEight) {
  EXPECT_EQ(*dense_flops_per_clock_per_sm(9, 0, GemmPrecision::Tf32) / *dense_flops_per_clock_per_sm(9, 0, GemmPrecision::Fp32),
            8.0);
}

TEST(GemmProblem, NamesAndSupport) {
  EXPECT_EQ(shape_name({8192, 28672, 8192}), "8192x28672x8192");
  EXPECT_EQ(gemm_flops({8192, 8192, 8192}), 2.0 * 8192.0 * 8192.0 * 8192.0);
  EXPECT_STREQ(precision_name(GemmPrecision::Fp8E4m3), "fp8_e4m3");
  EXPECT_TRUE(unsupported_reason(8, 6, GemmPrecision::Fp8E4m3).has_value());
  EXPECT_FALSE(unsupported_reason(8, 9, GemmPrecision::Fp8E4m3).has_value());
  EXPECT_FALSE(unsupported_reason(9, 0, GemmPrecision::Fp8E4m3).has_value());
  EXPECT_TRUE(unsupported_reason(7, 5, GemmPrecision::Bf16).has_value());
  EXPECT_FALSE(unsupported_reason(7, 5, GemmPrecision::Fp16).has_value());
}

}  // namespace
}  // namespace gpubench
