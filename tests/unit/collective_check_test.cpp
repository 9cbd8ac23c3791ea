// What each collective's output must hold (kernels::expected_output, which the GPU check kernel runs), against a
// simulation of the collective written the other way round: each rank's data sent where the collective sends it,
// summed in float in rank order. No GPU needed.
#include "benchmarks/nccl/collective_check.cuh"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "benchmarks/nccl/collective_table.hpp"

namespace gpubench {
namespace {

using kernels::collective_input;
using kernels::expected_output;
using kernels::kCollectiveRoot;
using kernels::output_ok;

using Buffers = std::vector<std::vector<float>>;  // one per rank

Buffers inputs(int ranks, std::size_t count) {
  Buffers in(ranks, std::vector<float>(count));
  for (int r = 0; r < ranks; ++r) {
    for (std::size_t i = 0; i < count; ++i) in[r][i] = collective_input(r, i);
  }
  return in;
}

// Block `b` of `from` (rank `sender`) copied or added into block `into_block` of `to`.
void deliver(const std::vector<float>& from, std::size_t b, std::vector<float>& to, std::size_t into_block,
             std::size_t block, bool add) {
  for (std::size_t j = 0; j < block; ++j) {
    float& target = to[into_block * block + j];
    target = add ? target + from[b * block + j] : from[b * block + j];
  }
}

// Every rank's receive buffer after one call, from what each sender sends where.
Buffers simulate(Collective collective, int ranks, std::size_t block) {
  const CallShape shape = call_shape(collective_spec(collective), block * ranks * sizeof(float), ranks);
  const std::size_t b = collective_spec(collective).send_blocks == Blocks::PerRank ||
                                collective_spec(collective).recv_blocks == Blocks::PerRank
                            ? block
                            : block * ranks;  // the whole buffer is one block
  EXPECT_EQ(shape.block, b);
  const Buffers in = inputs(ranks, shape.send_count);
  Buffers out(ranks, std::vector<float>(shape.recv_count, 0.0f));
  for (int sender = 0; sender < ranks; ++sender) {
    for (int receiver = 0; receiver < ranks; ++receiver) {
      switch (collective) {
        case Collective::AllReduce: deliver(in[sender], 0, out[receiver], 0, b, true); break;
        case Collective::AllGather: deliver(in[sender], 0, out[receiver], sender, b, false); break;
        case Collective::ReduceScatter: deliver(in[sender], receiver, out[receiver], 0, b, true); break;
        case Collective::Broadcast:
          if (sender == kCollectiveRoot) deliver(in[sender], 0, out[receiver], 0, b, false);
          break;
        case Collective::Reduce:
          if (receiver == kCollectiveRoot) deliver(in[sender], 0, out[receiver], 0, b, true);
          break;
        case Collective::AllToAll: deliver(in[sender], receiver, out[receiver], sender, b, false); break;
        case Collective::SendRecv:
          if (receiver == (sender + 1) % ranks) deliver(in[sender], 0, out[receiver], 0, b, false);
          break;
      }
    }
  }
  return out;
}

TEST(ExpectedOutput, EveryCollectiveAgreesWithItsSimulation) {
  for (int ranks : {2, 3, 4, 5, 8}) {
    for (Collective collective : kEveryCollective) {
      const std::size_t block = 7;
      const Buffers out = simulate(collective, ranks, block);
      const std::size_t nccl_count = call_shape(collective_spec(collective), block * ranks * sizeof(float), ranks).block;
      for (int r = 0; r < ranks; ++r) {
        if (!kernels::output_checked(collective, r)) continue;
        for (std::size_t i = 0; i < out[r].size(); ++i) {
          const kernels::ExpectedValue expected = expected_output(collective, r, ranks, nccl_count, i);
          ASSERT_TRUE(output_ok(out[r][i], expected))
              << collective_id_name(collective) << ", " << ranks << " ranks, rank " << r << ", element " << i << ": "
              << out[r][i] << " against " << expected.value;
          // Another element's value (a misplaced block) or a lost contribution of 0.5 or more never passes.
          ASSERT_FALSE(output_ok(out[r][(i + 1) % out[r].size()], expected)) << collective_id_name(collective) << " " << i;
          ASSERT_FALSE(output_ok(out[r][i] - 0.5f, expected)) << collective_id_name(collective) << " " << i;
          ASSERT_FALSE(output_ok(std::nanf(""), expected));
        }
      }
    }
  }
}

// Eight ranks, blocks of 7 floats where a buffer has one per rank (56 floats), worked out element by element.
TEST(ExpectedOutput, EightRanksByHand) {
  const auto copy = [](const kernels::ExpectedValue& expected, int rank, std::uint64_t index) {
    return expected.tolerance == 0.0 && expected.value == static_cast<double>(collective_input(rank, index));
  };
  // All-gather: rank 5's element 23 is block 3, element 2: rank 3's element 2.
  EXPECT_TRUE(copy(expected_output(Collective::AllGather, 5, 8, 7, 23), 3, 2));
  // All-to-all: rank 5's block 3 came from rank 3, which sent its block 5 there: element 23 is rank 3's 5 x 7 + 2 = 37.
  EXPECT_TRUE(copy(expected_output(Collective::AllToAll, 5, 8, 7, 23), 3, 37));
  // Reduce-scatter: rank 7 keeps block 7, so its element 4 is the sum of every rank's element 7 x 7 + 4 = 53.
  const kernels::ExpectedValue scattered = expected_output(Collective::ReduceScatter, 7, 8, 7, 4);
  double sum = 0;
  for (int r = 0; r < 8; ++r) sum += collective_input(r, 53);
  EXPECT_DOUBLE_EQ(scattered.value, sum);
  EXPECT_GT(scattered.tolerance, 0.0);
  // Send/recv is a ring: rank 0 receives from rank 7, rank 3 from rank 2.
  EXPECT_TRUE(copy(expected_output(Collective::SendRecv, 0, 8, 56, 9), 7, 9));
  EXPECT_TRUE(copy(expected_output(Collective::SendRecv, 3, 8, 56, 9), 2, 9));
  // Broadcast: every rank holds the root's (rank 0's) data.
  EXPECT_TRUE(copy(expected_output(Collective::Broadcast, 6, 8, 56, 40), kCollectiveRoot, 40));
  // All-reduce and reduce: the sum of all eight, within 2 x 7 x 2^-24 of the sum of their magnitudes (all positive).
  const kernels::ExpectedValue reduced = expected_output(Collective::AllReduce, 4, 8, 56, 40);
  double all = 0;
  for (int r = 0; r < 8; ++r) all += collective_input(r, 40);
  EXPECT_DOUBLE_EQ(reduced.value, all);
  EXPECT_DOUBLE_EQ(reduced.tolerance, 7 * all * 0x1p-23);
  EXPECT_DOUBLE_EQ(expected_output(Collective::Reduce, kCollectiveRoot, 8, 56, 40).value, all);
}

TEST(ExpectedOutput, OnlyTheRootOfAReduceReceives) {
  EXPECT_TRUE(kernels::output_checked(Collective::Reduce, kCollectiveRoot));
  EXPECT_FALSE(kernels::output_checked(Collective::Reduce, kCollectiveRoot + 1));
  for (Collective collective : kEveryCollective) {
    if (collective != Collective::Reduce) EXPECT_TRUE(kernels::output_checked(collective, 1));
  }
}

TEST(ExpectedOutput, CopiesMustBeExact) {
  const float x = collective_input(kCollectiveRoot, 7);
  const kernels::ExpectedValue expected = expected_output(Collective::Broadcast, 1, 4, 100, 7);
  EXPECT_EQ(expected.tolerance, 0.0);
  EXPECT_TRUE(output_ok(x, expected));
  EXPECT_FALSE(output_ok(std::nextafter(x, 2.0f), expected));
}

// Every order NCCL might add in gives a float sum within the tolerance; a wrong contribution never does.
TEST(ExpectedSum, ToleranceCoversEverySummationOrder) {
  for (int ranks : {2, 3, 8, 72}) {
    for (std::uint64_t i = 0; i < 2000; ++i) {
      const kernels::ExpectedValue expected = kernels::expected_sum(i, ranks);
      float forward = 0.0f;
      float backward = 0.0f;
      for (int r = 0; r < ranks; ++r) forward += collective_input(r, i);
      for (int r = ranks - 1; r >= 0; --r) backward += collective_input(r, i);
      // Pairwise, as a tree reduces.
      std::vector<float> level;
      for (int r = 0; r < ranks; ++r) level.push_back(collective_input(r, i));
      while (level.size() > 1) {
        std::vector<float> next;
        for (std::size_t k = 0; k + 1 < level.size(); k += 2) next.push_back(level[k] + level[k + 1]);
        if (level.size() % 2 == 1) next.push_back(level.back());
        level = next;
      }
      for (float sum : {forward, backward, level[0]}) {
        ASSERT_TRUE(output_ok(sum, expected)) << ranks << " ranks, element " << i << ": " << sum << " vs " << expected.value;
      }
      const float missing_one = forward - collective_input(ranks - 1, i);
      ASSERT_FALSE(output_ok(missing_one, expected));
      ASSERT_FALSE(output_ok(forward + collective_input(0, i), expected));
      ASSERT_FALSE(output_ok(std::nanf(""), expected));
    }
  }
}

TEST(ExpectedSum, InputsAreRandomAndDifferPerRank) {
  int equal = 0;
  for (std::uint64_t i = 0; i < 1000; ++i) {
    const float a = collective_input(0, i);
    const float b = collective_input(1, i);
    EXPECT_GE(a, kernels::kCollectiveInputLo);
    EXPECT_LT(a, kernels::kCollectiveInputHi);
    equal += a == b;
  }
  EXPECT_LT(equal, 5);
}

TEST(ExpectedSum, OneRankMustBeAnExactCopy) {
  const float x = collective_input(0, 7);
  EXPECT_TRUE(output_ok(x, kernels::expected_sum(7, 1)));
  EXPECT_FALSE(output_ok(std::nextafter(x, 2.0f), kernels::expected_sum(7, 1)));
}

}  // namespace
}  // namespace gpubench
