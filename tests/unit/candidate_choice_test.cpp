#include "benchmarks/common/candidate_choice.hpp"

#include <gtest/gtest.h>

namespace gpubench {
namespace {

TEST(CandidateChoice, TakesTheFastestMedianWhenItIsClearlyFaster) {
  // Candidate 1 is 3 % faster in every round but one.
  EXPECT_EQ(choose_candidate({{1.00, 1.01, 0.99, 1.00, 1.02}, {0.97, 0.97, 1.05, 0.96, 0.97}}), 1u);
}

TEST(CandidateChoice, JudgesByTheMedianNotByALuckyBatch) {
  // Candidate 1 had one batch far faster than anything else (a clock spike); its median is slower.
  EXPECT_EQ(choose_candidate({{1.00, 1.00, 1.00, 1.00, 1.00}, {0.90, 1.03, 1.04, 1.03, 1.05}}), 0u);
}

TEST(CandidateChoice, ANearTieGoesToTheEarlierCandidate) {
  // Candidate 2 is fastest by 0.5 %, within the 1 % margin of candidate 1; candidate 0 is 2 % slower.
  EXPECT_EQ(choose_candidate({{1.020, 1.020, 1.020}, {1.005, 1.005, 1.005}, {1.000, 1.000, 1.000}}), 1u);
}

TEST(CandidateChoice, TheMarginDecidesWhatCountsAsATie) {
  const std::vector<std::vector<double>> batches = {{1.02, 1.02, 1.02}, {1.00, 1.00, 1.00}};
  EXPECT_EQ(choose_candidate(batches, 0.01), 1u);
  EXPECT_EQ(choose_candidate(batches, 0.03), 0u);
}

TEST(CandidateChoice, OneCandidateIsChosenAndNoneIsAnError) {
  EXPECT_EQ(choose_candidate({{2.0}}), 0u);
  EXPECT_THROW(choose_candidate({}), std::invalid_argument);
  EXPECT_THROW(choose_candidate({{}}), std::invalid_argument);
}

TEST(CandidateChoice, RoundsAlternateTheListsOrder) {
  const std::vector<std::size_t> forwards = {0, 1, 2}, backwards = {2, 1, 0};
  for (int round = 0; round < 4; ++round) {
    std::vector<std::size_t> order;
    for (std::size_t turn = 0; turn < 3; ++turn) order.push_back(candidate_in_turn(round, turn, 3));
    EXPECT_EQ(order, round % 2 == 0 ? forwards : backwards) << "round " << round;
  }
}

}  // namespace
}  // namespace gpubench
