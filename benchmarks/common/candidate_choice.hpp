#pragma once
// Which of several ways to run the same work a benchmark times (cuBLASLt's algorithms for a GEMM, launch shapes for
// a memory kernel): the one that two processes on the same GPU choose alike. Timed samples scatter, and judging
// each candidate by its best sample picks among candidates within a few per cent of each other by chance: on an
// H200 the sustained FP16 and BF16 8192^3 figures moved 3 % between healthy processes as their algorithms flipped,
// and the memory read 3.6 % between the two GPUs of one node. So each candidate is judged by the median of its
// samples, timed in turns (a drift in clock or temperature then touches every candidate alike), and a later
// candidate of the list displaces an earlier one only when it is faster by more than the tie margin: a near tie
// goes to the list's order, the same in every process.
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "benchmarks/common/median.hpp"

namespace gpubench {

// A candidate must be this much faster (median sample) than an earlier one of the list to displace it.
inline constexpr double kCandidateTieMargin = 0.01;

// Which candidate takes turn `turn` of round `round`, of `candidates`: the list's order in even rounds, reversed in
// odd ones. In a fixed order a drift within each round (a power-capped clock still falling) favours whichever
// candidate comes first every time; GEMM tuning, whose rounds last up to 80 ms, alternates.
inline std::size_t candidate_in_turn(int round, std::size_t turn, std::size_t candidates) {
  return round % 2 == 0 ? turn : candidates - 1 - turn;
}

// batch_seconds[c] holds candidate c's timed samples, candidates in the order of preference. Returns the index of
// the candidate to keep: the earliest whose median is within the tie margin of the fastest median.
inline std::size_t choose_candidate(const std::vector<std::vector<double>>& batch_seconds,
                                    double tie_margin = kCandidateTieMargin) {
  if (batch_seconds.empty()) throw std::invalid_argument("no candidates to choose from");
  std::vector<double> medians;
  medians.reserve(batch_seconds.size());
  for (const std::vector<double>& batches : batch_seconds) medians.push_back(median(batches));
  const double fastest = *std::min_element(medians.begin(), medians.end());
  for (std::size_t c = 0; c < medians.size(); ++c) {
    if (medians[c] <= fastest * (1 + tie_margin)) return c;
  }
  return 0;  // not reached: the fastest itself is within the margin
}

}  // namespace gpubench
