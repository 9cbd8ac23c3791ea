#pragma once
// Theoretical dense GEMM peaks: SM count x SM clock x dense FLOP per clock per SM for the precision on the
// architecture. The per-SM rates are the one thing a device cannot report about itself, so they live in the
// table below; everything else comes from the device. Plain C++, usable by CPU tests.
#include <optional>

#include "benchmarks/gemm/gemm_problem.hpp"

namespace gpubench {

// Dense (no 2:4 sparsity) FLOP per clock per SM, a fused multiply-add counted as 2 FLOP. Tensor Core rates
// are for FP32 accumulation; fp32 is the CUDA cores' FMA rate (2 x FP32 lanes per SM).
// Sources, NVIDIA's architecture whitepapers (per-SM rate = the paper's dense TFLOPS / (SMs x boost clock)):
//   8.0  A100: "NVIDIA A100 Tensor Core GPU Architecture" (2020): 108 SMs at 1410 MHz, FP32 19.5, TF32 156,
//        FP16/BF16 312 TFLOPS.
//   8.6  GA102: "NVIDIA Ampere GA102 GPU Architecture" (2021): 128 FP32 lanes and 4 Tensor Cores per SM; the
//        professional parts' rates (RTX A6000: 84 SMs at 1800 MHz, TF32 77.4, FP16 154.8 TFLOPS).
//   8.9  AD102: "NVIDIA Ada GPU Architecture" (2022): RTX 6000 Ada, 142 SMs at 2505 MHz, FP32 91.1, TF32 182.1,
//        FP16/BF16 364.2, FP8 728.5 TFLOPS.
//   9.0  H100: "NVIDIA H100 Tensor Core GPU Architecture" (2022): SXM5, 132 SMs, TF32 494.7, FP16/BF16 989.4,
//        FP8 1978.9 TFLOPS at 1830 MHz; FP32 66.9 TFLOPS at 1980 MHz. H200 has the same SM.
//   10.0 Blackwell: "NVIDIA Blackwell Architecture Technical Brief" (2024) and the B200 datasheet: twice
//        Hopper's Tensor Core rate per SM (B200, 148 SMs: TF32 1.1, FP16/BF16 2.25, FP8 4.5 PFLOPS dense).
//   12.0 GB202: "NVIDIA RTX Blackwell GPU Architecture" (2025): RTX PRO 6000 Blackwell, 188 SMs at 2617 MHz,
//        FP16/BF16 503.8, FP8 1007.6 TFLOPS dense; Ada's per-SM rates.
// GeForce parts of 8.6, 8.9 and 12.0 run FP32-accumulating Tensor Core math at half these rates, so there
// the peak (and the efficiency shown) is twice too optimistic for fp16, bf16 and fp8.
constexpr std::optional<double> dense_flops_per_clock_per_sm(int major, int minor, GemmPrecision precision) {
  struct Rates {
    int major, minor;
    double fp32, tf32, fp16, bf16, fp8;  // 0: the architecture has no such Tensor Core path
  };
  constexpr Rates table[] = {
      {8, 0, 128, 1024, 2048, 2048, 0},
      {8, 6, 256, 512, 1024, 1024, 0},
      {8, 9, 256, 512, 1024, 1024, 2048},
      {9, 0, 256, 2048, 4096, 4096, 8192},
      {10, 0, 256, 4096, 8192, 8192, 16384},
      {12, 0, 256, 512, 1024, 1024, 2048},
  };
  for (const Rates& rates : table) {
    if (rates.major != major || rates.minor != minor) continue;
    double rate = 0;
    switch (precision) {
      case GemmPrecision::Fp32: rate = rates.fp32; break;
      case GemmPrecision::Tf32: rate = rates.tf32; break;
      case GemmPrecision::Fp16: rate = rates.fp16; break;
      case GemmPrecision::Bf16: rate = rates.bf16; break;
      case GemmPrecision::Fp8E4m3: rate = rates.fp8; break;
    }
    if (rate > 0) return rate;
    return std::nullopt;
  }
  return std::nullopt;
}

// TFLOP/s from SM count, SM clock in kHz (as cudaDevAttrClockRate reports it) and FLOP per clock per SM.
constexpr double peak_tflops(int sm_count, double sm_clock_khz, double flops_per_clock_per_sm) {
  return static_cast<double>(sm_count) * sm_clock_khz * 1e3 * flops_per_clock_per_sm / 1e12;
}

// The dense peak for `precision` on a device, or nothing for an architecture (or precision) not in the table.
constexpr std::optional<double> gemm_peak_tflops(int major, int minor, int sm_count, double sm_clock_khz,
                                                 GemmPrecision precision) {
  const std::optional<double> rate = dense_flops_per_clock_per_sm(major, minor, precision);
  if (!rate) return std::nullopt;
  return peak_tflops(sm_count, sm_clock_khz, *rate);
}

}  // namespace gpubench
