// The all-reduce benchmark's own machinery on real GPUs: NCCL's result on random inputs passes the check, in
// place and out of place, at a size that is a multiple of nothing NCCL likes; and the check catches one wrong
// element.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "benchmarks/common/copy_gate.hpp"
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/nccl/allreduce_check.cuh"
#include "benchmarks/nccl/allreduce_sweep.hpp"
#include "benchmarks/nccl/nccl_communicators.hpp"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

constexpr std::size_t kOddCount = 999'983;  // prime: no chunk, channel or 128-byte line divides it

int visible_gpus() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

#define REQUIRE_TWO_GPUS()                                     \
  do {                                                         \
    GPUBENCH_REQUIRE_GPU();                                    \
    if (visible_gpus() < 2) GTEST_SKIP() << "needs two GPUs"; \
  } while (false)

void expect_verified_allreduce(Placement placement) {
  const std::unique_ptr<NcclCommunicators> communicators = NcclCommunicators::for_devices({0, 1});
  AllReduceBench bench(*communicators, kOddCount * sizeof(float), placement);
  bench.warm_up();
  CopyGate gate;
  for (int sample = 0; sample < 3; ++sample) {
    if (placement == Placement::InPlace) bench.refresh_inputs();
    bench.enqueue_timed(gate, 4);
    gate.open();
    for (double seconds : bench.elapsed_seconds()) EXPECT_GT(seconds, 0.0);
  }
  EXPECT_FALSE(gate.timed_out());
  const std::vector<RankCheck> checks = bench.check();
  ASSERT_EQ(checks.size(), 2u);
  for (const RankCheck& check : checks) {
    EXPECT_EQ(check.mismatches, 0u) << "rank " << check.rank << ": first wrong element " << check.first_index << " is "
                                    << check.actual << ", expected " << check.expected;
  }
  EXPECT_EQ(describe_mismatches(checks, bench.count()), "");
}

TEST(NcclAllReduce, OutOfPlaceResultIsTheExpectedSum) {
  REQUIRE_TWO_GPUS();
  expect_verified_allreduce(Placement::OutOfPlace);
}

TEST(NcclAllReduce, InPlaceResultIsTheExpectedSum) {
  REQUIRE_TWO_GPUS();
  expect_verified_allreduce(Placement::InPlace);
}

// The check alone, on one GPU: a buffer holding the float sums of two ranks' inputs, then one corrupted element.
unsigned long long mismatches_in(const std::vector<float>& values, unsigned long long* first_index) {
  DeviceBuffer<float> data(values.size());
  DeviceBuffer<kernels::AllReduceMismatches> counter(1);
  kernels::AllReduceMismatches found{0, ~0ull};
  GPUBENCH_CUDA_CHECK(cudaMemcpy(data.get(), values.data(), data.bytes(), cudaMemcpyHostToDevice));
  GPUBENCH_CUDA_CHECK(cudaMemcpy(counter.get(), &found, sizeof found, cudaMemcpyHostToDevice));
  GPUBENCH_CUDA_CHECK(kernels::count_allreduce_mismatches(data.get(), values.size(), 2, counter.get(), nullptr));
  GPUBENCH_CUDA_CHECK(cudaMemcpy(&found, counter.get(), sizeof found, cudaMemcpyDeviceToHost));
  *first_index = found.first_index;
  return found.count;
}

std::vector<float> float_sums_of_two_ranks(std::size_t count) {
  std::vector<float> sums(count);
  for (std::size_t i = 0; i < count; ++i) sums[i] = kernels::allreduce_input(0, i) + kernels::allreduce_input(1, i);
  return sums;
}

TEST(AllReduceCheck, AcceptsTheFloatSums) {
  GPUBENCH_REQUIRE_GPU();
  GPUBENCH_CUDA_CHECK(cudaSetDevice(0));
  unsigned long long first = 0;
  EXPECT_EQ(mismatches_in(float_sums_of_two_ranks(kOddCount), &first), 0u);
}

TEST(AllReduceCheck, CatchesOneCorruptedElement) {
  GPUBENCH_REQUIRE_GPU();
  GPUBENCH_CUDA_CHECK(cudaSetDevice(0));
  const std::size_t corrupted = kOddCount - 17;
  const std::vector<std::function<float(float)>> corruptions = {
      [](float) { return 0.0f; },
      [](float) { return std::numeric_limits<float>::quiet_NaN(); },
      [](float sum) { return sum + 1e-3f; },  // small, yet thousands of times the rounding
  };
  for (std::size_t k = 0; k < corruptions.size(); ++k) {
    std::vector<float> sums = float_sums_of_two_ranks(kOddCount);
    sums[corrupted] = corruptions[k](sums[corrupted]);
    unsigned long long first = 0;
    EXPECT_EQ(mismatches_in(sums, &first), 1u) << "corruption " << k;
    EXPECT_EQ(first, corrupted) << "corruption " << k;
  }
}

TEST(AllReduceCheck, CatchesAMissingContribution) {
  GPUBENCH_REQUIRE_GPU();
  GPUBENCH_CUDA_CHECK(cudaSetDevice(0));
  std::vector<float> only_rank0(kOddCount);
  for (std::size_t i = 0; i < kOddCount; ++i) only_rank0[i] = kernels::allreduce_input(0, i);
  unsigned long long first = 0;
  EXPECT_EQ(mismatches_in(only_rank0, &first), kOddCount);
  EXPECT_EQ(first, 0u);
}

}  // namespace
}  // namespace gpubench
