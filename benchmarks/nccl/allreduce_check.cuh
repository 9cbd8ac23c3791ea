#pragma once
// The inputs of the all-reduce benchmarks and the sum they must produce. Each rank fills its input from a seed
// derived from its rank, so any GPU can recompute every rank's input, and hence the expected sum, on its own:
// no copy of another rank's data and no communication beyond the all-reduce under test.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

#include "kernels/random_fill.cuh"

namespace gpubench::kernels {

// All inputs positive: a missing or doubled contribution moves a sum by at least 0.5, far beyond rounding.
inline constexpr float kAllReduceInputLo = 0.5f;
inline constexpr float kAllReduceInputHi = 1.5f;

__host__ __device__ inline std::uint64_t allreduce_input_seed(int rank) {
  return 0x6A09E667F3BCC908ull + static_cast<std::uint64_t>(rank);
}

// Element `index` of rank `rank`'s input.
__host__ __device__ inline float allreduce_input(int rank, std::uint64_t index) {
  return random_float(allreduce_input_seed(rank), index, kAllReduceInputLo, kAllReduceInputHi);
}

struct ExpectedSum {
  double value;      // exact: n floats of this range add up without rounding in double
  double tolerance;  // how far a float sum of them may be from `value`
};

// NCCL adds in float and in an order that depends on the algorithm (ring order, tree order, which rank
// reduces which chunk), so its result may differ from the exact sum by rounding. Whatever the order, n floats
// summed in float stay within (n-1)·u·Σ|x| of the exact sum, u = 2^-24 (to first order); the tolerance is
// twice that bound, which covers the higher-order terms and is still far below the 0.5 that one wrong
// contribution would add. One rank (a copy) must be exact.
__host__ __device__ inline ExpectedSum expected_allreduce_sum(std::uint64_t index, int ranks) {
  double sum = 0.0;
  double magnitude = 0.0;
  for (int rank = 0; rank < ranks; ++rank) {
    const double x = allreduce_input(rank, index);
    sum += x;
    magnitude += x < 0 ? -x : x;
  }
  return {sum, (ranks - 1) * magnitude * 0x1p-23};
}

// False for a value outside the tolerance, NaN included (outputs are poisoned with NaN before they are written).
__host__ __device__ inline bool allreduce_result_ok(float actual, std::uint64_t index, int ranks) {
  const ExpectedSum expected = expected_allreduce_sum(index, ranks);
  const double error = static_cast<double>(actual) - expected.value;
  return error <= expected.tolerance && -error <= expected.tolerance;
}

struct AllReduceMismatches {
  unsigned long long count;
  unsigned long long first_index;  // the lowest wrong index; ~0 while none
};

// Fills `count` floats with rank `rank`'s input.
cudaError_t fill_allreduce_input(float* data, std::size_t count, int rank, cudaStream_t stream);

// Counts the elements of `actual` that are not the sum of `ranks` inputs into mismatches->count and lowers
// mismatches->first_index to the first of them. `mismatches` is device memory holding {0, ~0ull} beforehand.
cudaError_t count_allreduce_mismatches(const float* actual, std::size_t count, int ranks, AllReduceMismatches* mismatches,
                                       cudaStream_t stream);

}  // namespace gpubench::kernels
