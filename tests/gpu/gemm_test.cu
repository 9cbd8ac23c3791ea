// The gemm family on a real GPU: every precision's product, from every algorithm cuBLASLt's heuristic offers,
// checked against the FP64 reference at a small square and a non-square shape; the verifier shown to catch a
// corrupted element and an unwritten output; and the measured TFLOP/s shown to be positive and below the peak.
#include <gtest/gtest.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/event_timer.hpp"
#include "benchmarks/gemm/cublaslt_gemm.hpp"
#include "benchmarks/gemm/gemm_operands.hpp"
#include "benchmarks/gemm/gemm_peaks.hpp"
#include "benchmarks/gemm/gemm_problem.hpp"
#include "benchmarks/gemm/gemm_verify.hpp"
#include "benchmarks/gemm/timed_gemm.hpp"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

constexpr std::uint64_t kSeed = 42;
constexpr GemmShape kSquare{256, 256, 256};
// Multiples of 16 (FP8 needs 16-byte aligned columns) but of no tile size, so edge tiles are partial.
constexpr GemmShape kNonSquare{336, 208, 464};

struct Architecture {
  int major = 0;
  int minor = 0;
  int sm_count = 0;
  int sm_clock_khz = 0;
};

Architecture architecture() {
  int device = 0;
  Architecture arch;
  GPUBENCH_CUDA_CHECK(cudaGetDevice(&device));
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&arch.major, cudaDevAttrComputeCapabilityMajor, device));
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&arch.minor, cudaDevAttrComputeCapabilityMinor, device));
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&arch.sm_count, cudaDevAttrMultiProcessorCount, device));
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&arch.sm_clock_khz, cudaDevAttrClockRate, device));
  return arch;
}

#define SKIP_UNLESS_SUPPORTED(precision)                                                    \
  do {                                                                                      \
    const Architecture arch_ = architecture();                                              \
    if (const auto reason_ = unsupported_reason(arch_.major, arch_.minor, (precision))) {   \
      GTEST_SKIP() << *reason_;                                                             \
    }                                                                                       \
  } while (false)

std::string test_name(GemmPrecision precision) { return precision_name(precision); }

GemmPrecision precision_of(GemmPrecision precision) { return precision; }
GemmPrecision precision_of(const std::tuple<GemmPrecision, GemmShape>& param) { return std::get<0>(param); }

// A test of one precision (and for some, one shape) that runs only on a GPU supporting the precision, with a
// stream and a cuBLASLt handle made for it.
template <class Param>
class GemmTest : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    GPUBENCH_REQUIRE_GPU();
    SKIP_UNLESS_SUPPORTED(precision());
    stream_.emplace();
    handle_ = create_lt_handle();
  }

  GemmPrecision precision() const { return precision_of(this->GetParam()); }
  cudaStream_t stream() const { return stream_->get(); }
  cublasLtHandle_t handle() const { return handle_.get(); }

 private:
  std::optional<CudaStream> stream_;
  LtHandle handle_;
};

class GemmProduct : public GemmTest<std::tuple<GemmPrecision, GemmShape>> {
 protected:
  GemmShape shape() const { return std::get<1>(GetParam()); }
};

TEST_P(GemmProduct, EveryHeuristicAlgorithmMatchesTheFp64Reference) {
  const GemmOperands operands(precision(), shape(), kSeed, stream());
  const LtGemm gemm(handle(), operands);
  const std::vector<LtAlgorithm> candidates = gemm.heuristic_candidates(kHeuristicCandidates);
  ASSERT_FALSE(candidates.empty()) << "cuBLASLt offers no algorithm";
  const GemmSample sample = choose_sample(shape(), kSeed);
  int launched = 0;
  for (const LtAlgorithm& candidate : candidates) {
    operands.poison_output(stream());
    if (gemm.try_launch(candidate, stream()) != CUBLAS_STATUS_SUCCESS) continue;
    ++launched;
    const GemmCheck check = check_gemm(operands, sample, stream());
    EXPECT_EQ(check.checked, sample.rows.size() * sample.cols.size());
    EXPECT_EQ(check.wrong, 0u) << "heuristic rank " << candidate.heuristic_rank << ": " << check.summary();
    EXPECT_LT(check.worst_error, check.tolerance / 4) << "the tolerance should leave a wide margin";
  }
  EXPECT_GT(launched, 0);
}

TEST_P(GemmProduct, TheChosenAlgorithmsTimedOutputPassesAndUnwrittenOutputFails) {
  const TimedGemm gemm(handle(), precision(), shape(), kSeed, stream(), AlgorithmChoice::LibraryFirst);
  // The tuning leaves D poisoned: until a timed batch runs, every sampled element is NaN.
  const GemmCheck unwritten = gemm.verify(stream());
  EXPECT_EQ(unwritten.wrong, unwritten.checked) << unwritten.summary();
  EventTimer timer;
  EXPECT_GT(gemm.time_batch(timer, stream()), 0.0);
  const GemmCheck check = gemm.verify(stream());
  EXPECT_EQ(check.wrong, 0u) << check.summary();
  EXPECT_EQ(gemm.params().count("algo_id"), 1u);
}

TEST_P(GemmProduct, ABurstWritesAVerifiedProduct) {
  const TimedGemm gemm(handle(), precision(), shape(), kSeed, stream(), AlgorithmChoice::LibraryFirst);
  EventTimer timer;
  EXPECT_GT(gemm.time_burst(3, 10, timer, stream()), 0.0);
  const GemmCheck check = gemm.verify(stream());
  EXPECT_EQ(check.wrong, 0u) << check.summary();
}

TEST_P(GemmProduct, TheLibrarysFirstChoiceIsTheHeuristicsFirstThatLaunches) {
  const TimedGemm gemm(handle(), precision(), shape(), kSeed, stream(), AlgorithmChoice::LibraryFirst);
  const GemmOperands operands(precision(), shape(), kSeed, stream());
  const LtGemm reference(handle(), operands);
  int first_that_launches = -1;
  for (const LtAlgorithm& candidate : reference.heuristic_candidates(kHeuristicCandidates)) {
    if (reference.try_launch(candidate, stream()) == CUBLAS_STATUS_SUCCESS) {
      first_that_launches = candidate.heuristic_rank;
      break;
    }
  }
  EXPECT_EQ(gemm.choice().algorithm.heuristic_rank, first_that_launches);
  EXPECT_EQ(gemm.params().at("algo_choice"), "cublaslt_heuristic_first");
  EXPECT_EQ(gemm.params().count("candidates_timed"), 0u) << "nothing was timed to choose it";
}

TEST_P(GemmProduct, AChoiceHandedOnIsTimedAsItIsAndVerifies) {
  const TimedGemm tuned(handle(), precision(), shape(), kSeed, stream(), AlgorithmChoice::FastestTimed);
  const TimedGemm reused(handle(), precision(), shape(), kSeed, stream(), AlgorithmChoice::FastestTimed,
                         tuned.choice());
  EXPECT_EQ(reused.params(), tuned.params()) << "same algorithm, batch and candidate count";
  EXPECT_GT(tuned.choice().candidates_timed, 0u);
  EventTimer timer;
  EXPECT_GT(reused.time_batch(timer, stream()), 0.0);
  const GemmCheck check = reused.verify(stream());
  EXPECT_EQ(check.wrong, 0u) << check.summary();
}

INSTANTIATE_TEST_SUITE_P(AllPrecisions, GemmProduct,
                         ::testing::Combine(::testing::ValuesIn(kGemmPrecisions), ::testing::Values(kSquare, kNonSquare)),
                         [](const ::testing::TestParamInfo<GemmProduct::ParamType>& info) {
                           const GemmShape& shape = std::get<1>(info.param);
                           return test_name(std::get<0>(info.param)) + "_" + std::to_string(shape.m) + "x" +
                                  std::to_string(shape.n) + "x" + std::to_string(shape.k);
                         });

// Overwrites element (row, col) of D with its value plus `delta`, encoded in D's type.
void corrupt_output(const GemmOperands& operands, std::int64_t row, std::int64_t col, double delta) {
  const GemmPrecision precision = operands.precision();
  const std::size_t size = output_bytes(precision);
  unsigned char* element = static_cast<unsigned char*>(operands.d()) +
                           (static_cast<std::size_t>(col) * static_cast<std::size_t>(operands.shape().m) +
                            static_cast<std::size_t>(row)) * size;
  unsigned char bytes[4] = {};
  GPUBENCH_CUDA_CHECK(cudaMemcpy(bytes, element, size, cudaMemcpyDeviceToHost));
  const float corrupted = static_cast<float>(decode_output(precision, bytes) + delta);
  if (size == 4) {
    std::memcpy(bytes, &corrupted, 4);
  } else if (precision == GemmPrecision::Fp16) {
    const __half value = __float2half(corrupted);
    std::memcpy(bytes, &value, 2);
  } else {
    const __nv_bfloat16 value = __float2bfloat16(corrupted);
    std::memcpy(bytes, &value, 2);
  }
  GPUBENCH_CUDA_CHECK(cudaMemcpy(element, bytes, size, cudaMemcpyHostToDevice));
}

class GemmVerifier : public GemmTest<GemmPrecision> {};

TEST_P(GemmVerifier, CatchesOneCorruptedElement) {
  const GemmOperands operands(precision(), kNonSquare, kSeed, stream());
  const LtGemm gemm(handle(), operands);
  const std::vector<LtAlgorithm> candidates = gemm.heuristic_candidates(1);
  ASSERT_FALSE(candidates.empty());
  gemm.launch(candidates.front(), stream());
  const GemmSample sample = choose_sample(kNonSquare, kSeed);
  ASSERT_EQ(check_gemm(operands, sample, stream()).wrong, 0u);

  // Products of two values uniform in [-1, 1) average 1/4 in magnitude, so S is about K/4 and a change of
  // K/2 is an error of about 2: what a wrong tile would look like, not a rounding difference.
  const std::int64_t row = sample.rows[3];
  const std::int64_t col = sample.cols[5];
  corrupt_output(operands, row, col, static_cast<double>(kNonSquare.k) / 2);
  const GemmCheck check = check_gemm(operands, sample, stream());
  EXPECT_EQ(check.wrong, 1u) << check.summary();
  EXPECT_EQ(check.worst_row, row);
  EXPECT_EQ(check.worst_col, col);
  EXPECT_GT(check.worst_error, 1.0);
  EXPECT_NE(check.summary().find("1 of 256 sampled elements off"), std::string::npos) << check.summary();
}

INSTANTIATE_TEST_SUITE_P(AllPrecisions, GemmVerifier, ::testing::ValuesIn(kGemmPrecisions),
                         [](const ::testing::TestParamInfo<GemmPrecision>& info) { return test_name(info.param); });

class GemmThroughput : public GemmTest<GemmPrecision> {};

TEST_P(GemmThroughput, IsPositiveAndBelowTheTheoreticalPeak) {
  const GemmShape shape{4096, 4096, 4096};
  const TimedGemm gemm(handle(), precision(), shape, kSeed, stream(), AlgorithmChoice::LibraryFirst);
  EventTimer timer;
  double seconds = 0;
  constexpr int kBatches = 10;
  for (int i = 0; i < kBatches; ++i) seconds += gemm.time_batch(timer, stream());
  const double tflops = gemm_flops(shape) * kBatches * gemm.launches_per_batch() / seconds / 1e12;
  EXPECT_EQ(gemm.verify(stream()).wrong, 0u);
  EXPECT_GT(tflops, 0.0);
  const Architecture arch = architecture();
  const auto peak = gemm_peak_tflops(arch.major, arch.minor, arch.sm_count, arch.sm_clock_khz, precision());
  if (peak) {
    EXPECT_LT(tflops, *peak) << "measured " << tflops << " TFLOP/s against a theoretical " << *peak;
  }
  ::testing::Test::RecordProperty(std::string(precision_name(precision())) + "_tflops", std::to_string(tflops));
}

INSTANTIATE_TEST_SUITE_P(AllPrecisions, GemmThroughput, ::testing::ValuesIn(kGemmPrecisions),
                         [](const ::testing::TestParamInfo<GemmPrecision>& info) { return test_name(info.param); });

}  // namespace
}  // namespace gpubench
