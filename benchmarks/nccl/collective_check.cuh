#pragma once
// The inputs of the NCCL benchmarks and the output each collective must produce from them. Each rank fills its
// send buffer from a seed derived from its rank, so any GPU can recompute every rank's input, and hence the
// expected value of each of its own output elements, on its own: no copy of another rank's data and no
// communication beyond the collective under test.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

#include "benchmarks/nccl/collective_kind.hpp"
#include "kernels/random_fill.cuh"

namespace gpubench::kernels {

// All inputs positive: a missing or doubled contribution moves a sum by at least 0.5, far beyond rounding.
inline constexpr float kCollectiveInputLo = 0.5f;
inline constexpr float kCollectiveInputHi = 1.5f;

// The root of a broadcast or reduce, as nccl-tests' default.
inline constexpr int kCollectiveRoot = 0;

__host__ __device__ inline std::uint64_t collective_input_seed(int rank) {
  return 0x6A09E667F3BCC908ull + static_cast<std::uint64_t>(rank);
}

// Element `index` of rank `rank`'s send buffer.
__host__ __device__ inline float collective_input(int rank, std::uint64_t index) {
  return random_float(collective_input_seed(rank), index, kCollectiveInputLo, kCollectiveInputHi);
}

struct ExpectedValue {
  double value;      // exact: a copy of one input, or n floats of this range added in double without rounding
  double tolerance;  // how far a float result may be from `value`: 0 for a copy
};

// Element `index` of every rank's input, summed. NCCL adds in float and in an order that depends on the
// algorithm (ring order, tree order, which rank reduces which chunk), so its result may differ from the exact
// sum by rounding. Whatever the order, n floats summed in float stay within (n-1)·u·Σ|x| of the exact sum,
// u = 2^-24 (to first order); the tolerance is twice that bound, which covers the higher-order terms and is still
// far below the 0.5 that one wrong contribution would add. One rank (a copy) must be exact.
__host__ __device__ inline ExpectedValue expected_sum(std::uint64_t index, int ranks) {
  double sum = 0.0;
  double magnitude = 0.0;
  for (int rank = 0; rank < ranks; ++rank) {
    const double x = collective_input(rank, index);
    sum += x;
    magnitude += x < 0 ? -x : x;
  }
  return {sum, (ranks - 1) * magnitude * 0x1p-23};
}

__host__ __device__ inline ExpectedValue copy_of(int rank, std::uint64_t index) {
  return {collective_input(rank, index), 0.0};
}

// Whether rank `rank` receives anything: a reduce leaves every rank's receive buffer but the root's untouched.
__host__ __device__ inline bool output_checked(Collective collective, int rank) {
  return collective != Collective::Reduce || rank == kCollectiveRoot;
}

// Element `index` of rank `rank`'s receive buffer after one call, out of place or in place, float sum where the
// collective reduces. `block` is the count NCCL is given: the per-rank block of an all-gather, reduce-scatter or
// all-to-all (their buffers of n blocks hold block r at r·block), the whole buffer otherwise. Only for ranks whose
// output_checked().
__host__ __device__ inline ExpectedValue expected_output(Collective collective, int rank, int ranks, std::uint64_t block,
                                                         std::uint64_t index) {
  switch (collective) {
    case Collective::AllReduce:
    case Collective::Reduce: return expected_sum(index, ranks);
    case Collective::AllGather: return copy_of(static_cast<int>(index / block), index % block);
    case Collective::ReduceScatter: return expected_sum(rank * block + index, ranks);
    case Collective::Broadcast: return copy_of(kCollectiveRoot, index);
    case Collective::AllToAll: return copy_of(static_cast<int>(index / block), rank * block + index % block);
    case Collective::SendRecv: return copy_of((rank + ranks - 1) % ranks, index);  // a ring: r-1 sends to r
  }
  return {0.0, -1.0};  // no value passes
}

// False for a value outside the tolerance, NaN included (outputs are poisoned with NaN before they are written).
__host__ __device__ inline bool output_ok(float actual, const ExpectedValue& expected) {
  const double error = static_cast<double>(actual) - expected.value;
  return error <= expected.tolerance && -error <= expected.tolerance;
}

struct CollectiveMismatches {
  unsigned long long count;
  unsigned long long first_index;  // the lowest wrong index; ~0 while none
};

// Where one rank's output is and what it should hold.
struct OutputToCheck {
  Collective collective;
  const float* actual;  // rank `rank`'s receive buffer, on the current device
  std::size_t count;    // its elements
  int rank;
  int ranks;
  std::size_t block;
};

// Fills `count` floats with rank `rank`'s input.
cudaError_t fill_collective_input(float* data, std::size_t count, int rank, cudaStream_t stream);

// Counts the elements of `output` that are not their expected_output into mismatches->count and lowers
// mismatches->first_index to the first of them. `mismatches` is device memory holding {0, ~0ull} beforehand.
cudaError_t count_collective_mismatches(const OutputToCheck& output, CollectiveMismatches* mismatches, cudaStream_t stream);

}  // namespace gpubench::kernels
