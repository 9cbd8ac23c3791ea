// The memory-test kernels on a real GPU: each pattern reads back clean, and one flipped bit is found once, with
// its word, what it should hold and what it held, by the plain check and by moving inversions' two sweeps, which
// leave the buffer holding the pattern again.
#include <gtest/gtest.h>

#include <cstdint>

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "kernels/memtest.cuh"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

constexpr std::size_t kWords = (1 << 20) + 3;  // not a multiple of any grid
constexpr std::uint64_t kSeed = 77;
constexpr std::size_t kFlipped = 12345;
constexpr std::uint64_t kBit = 1ull << 40;

kernels::MemtestErrors fresh_errors(DeviceBuffer<kernels::MemtestErrors>& errors) {
  const kernels::MemtestErrors none{};
  GPUBENCH_CUDA_CHECK(cudaMemcpy(errors.get(), &none, sizeof none, cudaMemcpyHostToDevice));
  return none;
}

kernels::MemtestErrors read_errors(const DeviceBuffer<kernels::MemtestErrors>& errors) {
  kernels::MemtestErrors found{};
  GPUBENCH_CUDA_CHECK(cudaMemcpy(&found, errors.get(), sizeof found, cudaMemcpyDeviceToHost));
  return found;
}

void flip(DeviceBuffer<std::uint64_t>& words) {
  std::uint64_t word = 0;
  GPUBENCH_CUDA_CHECK(cudaMemcpy(&word, words.get() + kFlipped, 8, cudaMemcpyDeviceToHost));
  word ^= kBit;
  GPUBENCH_CUDA_CHECK(cudaMemcpy(words.get() + kFlipped, &word, 8, cudaMemcpyHostToDevice));
}

void expect_the_flip(const kernels::MemtestErrors& found, const DeviceBuffer<std::uint64_t>& words,
                     kernels::MemtestPattern pattern) {
  EXPECT_EQ(found.count, 1u) << kernels::memtest_pattern_name(pattern);
  ASSERT_EQ(found.logged, 1u) << kernels::memtest_pattern_name(pattern);
  EXPECT_EQ(found.errors[0].index, kFlipped);
  EXPECT_EQ(found.errors[0].expected, kernels::memtest_expected_word(words.get(), kFlipped, pattern, kSeed));
  EXPECT_EQ(found.errors[0].actual ^ found.errors[0].expected, kBit);
}

class EveryPattern : public ::testing::TestWithParam<kernels::MemtestPattern> {};

TEST_P(EveryPattern, ReadsBackCleanAndFindsOneFlippedBitOnce) {
  GPUBENCH_REQUIRE_GPU();
  const kernels::MemtestPattern pattern = GetParam();
  DeviceBuffer<std::uint64_t> words(kWords);
  DeviceBuffer<kernels::MemtestErrors> errors(1);

  fresh_errors(errors);
  GPUBENCH_CUDA_CHECK(kernels::memtest_write(words.get(), kWords, pattern, kSeed, nullptr));
  GPUBENCH_CUDA_CHECK(kernels::memtest_check(words.get(), kWords, pattern, kSeed, errors.get(), nullptr));
  EXPECT_EQ(read_errors(errors).count, 0u);

  flip(words);
  fresh_errors(errors);
  if (pattern == kernels::MemtestPattern::MovingInversions) {
    GPUBENCH_CUDA_CHECK(kernels::memtest_invert(words.get(), kWords, pattern, kSeed, false, false, errors.get(), nullptr));
    GPUBENCH_CUDA_CHECK(kernels::memtest_invert(words.get(), kWords, pattern, kSeed, true, true, errors.get(), nullptr));
  }
  GPUBENCH_CUDA_CHECK(kernels::memtest_check(words.get(), kWords, pattern, kSeed, errors.get(), nullptr));
  expect_the_flip(read_errors(errors), words, pattern);
}

INSTANTIATE_TEST_SUITE_P(Memtest, EveryPattern,
                         ::testing::Values(kernels::MemtestPattern::WalkingOnes, kernels::MemtestPattern::WalkingZeros,
                                           kernels::MemtestPattern::Random, kernels::MemtestPattern::AddressInAddress,
                                           kernels::MemtestPattern::MovingInversions));

TEST(MovingInversions, LeavesThePatternInPlaceAndCountsEachWrongWordOnce) {
  GPUBENCH_REQUIRE_GPU();
  const kernels::MemtestPattern pattern = kernels::MemtestPattern::MovingInversions;
  DeviceBuffer<std::uint64_t> words(kWords);
  DeviceBuffer<kernels::MemtestErrors> errors(1);
  GPUBENCH_CUDA_CHECK(kernels::memtest_write(words.get(), kWords, pattern, kSeed, nullptr));
  fresh_errors(errors);
  GPUBENCH_CUDA_CHECK(kernels::memtest_invert(words.get(), kWords, pattern, kSeed, false, false, errors.get(), nullptr));
  // Between the sweeps every word holds its complement: the plain check sees all of them wrong.
  DeviceBuffer<kernels::MemtestErrors> complemented(1);
  fresh_errors(complemented);
  GPUBENCH_CUDA_CHECK(kernels::memtest_check(words.get(), kWords, pattern, kSeed, complemented.get(), nullptr));
  const kernels::MemtestErrors all_wrong = read_errors(complemented);
  EXPECT_EQ(all_wrong.count, kWords);
  EXPECT_GE(all_wrong.logged, kernels::kMemtestLoggedErrors) << "slots are claimed past the log's size";
  GPUBENCH_CUDA_CHECK(kernels::memtest_invert(words.get(), kWords, pattern, kSeed, true, true, errors.get(), nullptr));
  GPUBENCH_CUDA_CHECK(kernels::memtest_check(words.get(), kWords, pattern, kSeed, errors.get(), nullptr));
  EXPECT_EQ(read_errors(errors).count, 0u);
}

}  // namespace
}  // namespace gpubench
