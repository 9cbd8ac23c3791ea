// The concurrent copy patterns on real GPUs (benchmarks/p2p/pattern_copies.hpp): every copy of all-to-one and
// one-to-all, by copy engines and by SMs, started together behind one gate, leaves each destination holding its
// source's bytes; one corrupted byte in any destination is caught by the check the benchmarks run.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "benchmarks/common/copy_gate.hpp"
#include "benchmarks/common/peer_access.hpp"
#include "benchmarks/p2p/copy_patterns.hpp"
#include "benchmarks/p2p/pattern_copies.hpp"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

// Small enough to be quick, odd enough to leave a tail past the 16-byte vectors.
constexpr std::size_t kBytes = (std::size_t{8} << 20) + 13;

std::vector<int> every_gpu() {
  int count = 0;
  GPUBENCH_CUDA_CHECK(cudaGetDeviceCount(&count));
  std::vector<int> gpus;
  for (int i = 0; i < count; ++i) gpus.push_back(i);
  return gpus;
}

// Peer access between GPU 0 and every other, held for the test; empty after setting *why_not.
std::vector<std::unique_ptr<PeerAccess>> access_to_gpu0(const std::vector<int>& gpus, std::string* why_not) {
  std::vector<std::unique_ptr<PeerAccess>> access;
  for (int peer : gpus) {
    if (peer == 0) continue;
    access.push_back(std::make_unique<PeerAccess>(0, peer));
    if (!access.back()->enabled()) {
      *why_not = access.back()->why_not();
      return {};
    }
  }
  return access;
}

// One round of every copy at once, behind one gate, as the benchmarks run them.
void run_round(const PatternCopies& copies) {
  CopyGate gate;
  copies.enqueue_round(gate, 1);
  gate.open();
  copies.lane_seconds();
  EXPECT_FALSE(gate.timed_out());
}

struct Case {
  CopyDriver driver;
  CopyPattern pattern;
};

// Every visible GPU, peer access between GPU 0 and each other held for the test; skips without two GPUs or access.
class ConcurrentPatterns : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    GPUBENCH_REQUIRE_GPU();
    gpus_ = every_gpu();
    if (gpus_.size() < 2) GTEST_SKIP() << "needs two GPUs; " << gpus_.size() << " visible";
    std::string why_not;
    access_ = access_to_gpu0(gpus_, &why_not);
    if (!why_not.empty()) GTEST_SKIP() << why_not;
  }

  std::vector<int> gpus_;
  std::vector<std::unique_ptr<PeerAccess>> access_;
};

TEST_P(ConcurrentPatterns, EveryDestinationHoldsItsSourceAndOneWrongByteIsCaught) {
  const std::vector<PeerCopy> plan = pattern_copies(GetParam().pattern, 0, gpus_);
  PatternCopies copies(GetParam().driver, plan, kBytes, 5);
  ASSERT_EQ(copies.size(), gpus_.size() - 1);
  for (PeerTransfer* transfer : copies.transfers()) transfer->poison();
  run_round(copies);
  for (std::size_t i = 0; i < copies.size(); ++i) {
    const PeerTransfer& t = copies.transfer(i);
    EXPECT_EQ(t.from(), plan[i].from);
    EXPECT_EQ(t.to(), plan[i].to);
    EXPECT_EQ(t.count_mismatches(), 0u) << gpu_name(t.from()) << "->" << gpu_name(t.to());
  }

  // Flip one byte, in the tail, of the last copy's destination.
  const PeerTransfer& last = copies.transfer(copies.size() - 1);
  GPUBENCH_CUDA_CHECK(cudaSetDevice(last.to()));
  unsigned char byte = 0;
  GPUBENCH_CUDA_CHECK(cudaMemcpy(&byte, last.destination() + kBytes - 2, 1, cudaMemcpyDeviceToHost));
  byte ^= 0x40;
  GPUBENCH_CUDA_CHECK(cudaMemcpy(last.destination() + kBytes - 2, &byte, 1, cudaMemcpyHostToDevice));
  EXPECT_EQ(last.count_mismatches(), 1u);
  EXPECT_NE(last.mismatch_reason(1, copies.how()).find("1 differing 8-byte words"), std::string::npos);
}

TEST_P(ConcurrentPatterns, ACopyThatNeverRanIsCaught) {
  const PatternCopies copies(GetParam().driver, pattern_copies(GetParam().pattern, 0, gpus_), kBytes, 9);
  for (std::size_t i = 0; i < copies.size(); ++i) EXPECT_GT(copies.transfer(i).count_mismatches(), 0u);
}

INSTANTIATE_TEST_SUITE_P(EveryDriverAndPattern, ConcurrentPatterns,
                         ::testing::Values(Case{CopyDriver::CopyEngine, CopyPattern::AllToOne},
                                           Case{CopyDriver::CopyEngine, CopyPattern::OneToAll},
                                           Case{CopyDriver::Sm, CopyPattern::AllToOne},
                                           Case{CopyDriver::Sm, CopyPattern::OneToAll}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return pattern_variant(info.param.driver, info.param.pattern);
                         });

}  // namespace
}  // namespace gpubench
