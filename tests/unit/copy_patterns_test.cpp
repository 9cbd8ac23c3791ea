// The concurrent copy patterns' arithmetic: which copies each pattern makes around a target, how their bytes are
// counted (nvbandwidth's total bandwidth), and the ids' variant names.
#include "benchmarks/p2p/copy_patterns.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "benchmarks/common/throughput.hpp"

namespace gpubench {
namespace {

TEST(CopyPatterns, AllToOneHasEveryPeerSendIntoTheTarget) {
  const std::vector<PeerCopy> copies = pattern_copies(CopyPattern::AllToOne, 2, {0, 1, 2, 3});
  EXPECT_EQ(copies, (std::vector<PeerCopy>{{0, 2}, {1, 2}, {3, 2}}));
}

TEST(CopyPatterns, OneToAllHasTheTargetSendIntoEveryPeer) {
  const std::vector<PeerCopy> copies = pattern_copies(CopyPattern::OneToAll, 0, {0, 1, 2, 3});
  EXPECT_EQ(copies, (std::vector<PeerCopy>{{0, 1}, {0, 2}, {0, 3}}));
}

TEST(CopyPatterns, FollowTheSelectedGpusNotTheirCount) {
  EXPECT_EQ(pattern_copies(CopyPattern::AllToOne, 5, {3, 5, 7}), (std::vector<PeerCopy>{{3, 5}, {7, 5}}));
  EXPECT_TRUE(pattern_copies(CopyPattern::OneToAll, 0, {0}).empty()) << "one GPU has no peer to copy with";
}

TEST(CopyPatterns, CountEveryCopysBytesOnce) {
  // Seven peers of 512 MiB each: 3.5 GiB a round, whichever way they flow.
  EXPECT_DOUBLE_EQ(pattern_round_bytes(7, kPatternBytes), 7.0 * 512 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(pattern_round_bytes(1, kPatternBytes), 536870912.0);
}

TEST(CopyPatterns, AggregateIsTotalBytesOverTotalTime) {
  // Hand-worked: 3 copies of 512 MiB in 4.5 ms a round, 10 rounds: 1610612736 B x 10 / 0.045 s = 357.9 GB/s.
  const double gbps = gigabytes_per_second(pattern_round_bytes(3, kPatternBytes), 10, 0.045);
  EXPECT_NEAR(gbps, 357.91394, 1e-4);
  // Two GPUs, one peer: a round of one 512 MiB copy in 1.5 ms is 357.9 GB/s too.
  EXPECT_NEAR(gigabytes_per_second(pattern_round_bytes(1, kPatternBytes), 1, 0.0015), 357.91394, 1e-4);
}

TEST(CopyPatterns, VariantNamesAreTheIdsSecondSegment) {
  EXPECT_EQ(pattern_variant(CopyDriver::CopyEngine, CopyPattern::AllToOne), "ce_all_to_one");
  EXPECT_EQ(pattern_variant(CopyDriver::CopyEngine, CopyPattern::OneToAll), "ce_one_to_all");
  EXPECT_EQ(pattern_variant(CopyDriver::Sm, CopyPattern::AllToOne), "sm_all_to_one");
  EXPECT_EQ(pattern_variant(CopyDriver::Sm, CopyPattern::OneToAll), "sm_one_to_all");
}

}  // namespace
}  // namespace gpubench
