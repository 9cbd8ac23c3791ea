// The concurrent copy patterns' arithmetic: which copies each pattern makes around a target (four and eight GPUs
// among them), how their bytes are counted (nvbandwidth's total bandwidth), and the ids' variant names.
#include "benchmarks/p2p/copy_patterns.hpp"

#include <gtest/gtest.h>

#include <set>
#include <utility>
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

TEST(CopyPatterns, EightGpusGiveEachTargetSevenCopiesAndEveryPairOnceAPattern) {
  const std::vector<int> eight = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(pattern_copies(CopyPattern::AllToOne, 5, eight),
            (std::vector<PeerCopy>{{0, 5}, {1, 5}, {2, 5}, {3, 5}, {4, 5}, {6, 5}, {7, 5}}));
  EXPECT_EQ(pattern_copies(CopyPattern::OneToAll, 7, eight),
            (std::vector<PeerCopy>{{7, 0}, {7, 1}, {7, 2}, {7, 3}, {7, 4}, {7, 5}, {7, 6}}));
  // Over the eight targets each pattern makes 8 x 7 = 56 copies: every ordered pair once, so each link carries one
  // all-to-one copy into its receiver and one one-to-all copy out of its sender.
  for (CopyPattern pattern : {CopyPattern::AllToOne, CopyPattern::OneToAll}) {
    std::set<std::pair<int, int>> pairs;
    std::size_t copies = 0;
    for (int target : eight) {
      for (const PeerCopy& copy : pattern_copies(pattern, target, eight)) {
        EXPECT_NE(copy.from, copy.to);
        EXPECT_EQ(pattern == CopyPattern::AllToOne ? copy.to : copy.from, target);
        pairs.insert({copy.from, copy.to});
        ++copies;
      }
    }
    EXPECT_EQ(copies, 56u) << pattern_name(pattern);
    EXPECT_EQ(pairs.size(), 56u) << pattern_name(pattern);
  }
}

TEST(CopyPatterns, FourGpusGiveEachTargetThreeCopies) {
  EXPECT_EQ(pattern_copies(CopyPattern::AllToOne, 0, {0, 1, 2, 3}), (std::vector<PeerCopy>{{1, 0}, {2, 0}, {3, 0}}));
  EXPECT_EQ(pattern_copies(CopyPattern::OneToAll, 3, {0, 1, 2, 3}), (std::vector<PeerCopy>{{3, 0}, {3, 1}, {3, 2}}));
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

TEST(CopyPatterns, EightGpusAggregateByHand) {
  // All to one on eight GPUs: 7 copies of 512 MiB = 3,758,096,384 B a round. At NVLink's ~400 GB/s into one H200 a
  // round takes ~9.4 ms; in 9 ms a round, 20 rounds: 3758096384 x 20 / 0.18 s = 417.566 GB/s.
  EXPECT_DOUBLE_EQ(pattern_round_bytes(7, kPatternBytes), 3758096384.0);
  EXPECT_NEAR(gigabytes_per_second(pattern_round_bytes(7, kPatternBytes), 20, 0.18), 417.56626, 1e-5);
  // Four GPUs: 3 copies, 1,610,612,736 B a round; in 4 ms a round, 25 rounds (0.1 s): 402.653 GB/s.
  EXPECT_NEAR(gigabytes_per_second(pattern_round_bytes(3, kPatternBytes), 25, 0.1), 402.653184, 1e-6);
}

TEST(CopyPatterns, VariantNamesAreTheIdsSecondSegment) {
  EXPECT_EQ(pattern_variant(CopyDriver::CopyEngine, CopyPattern::AllToOne), "ce_all_to_one");
  EXPECT_EQ(pattern_variant(CopyDriver::CopyEngine, CopyPattern::OneToAll), "ce_one_to_all");
  EXPECT_EQ(pattern_variant(CopyDriver::Sm, CopyPattern::AllToOne), "sm_all_to_one");
  EXPECT_EQ(pattern_variant(CopyDriver::Sm, CopyPattern::OneToAll), "sm_one_to_all");
}

}  // namespace
}  // namespace gpubench
