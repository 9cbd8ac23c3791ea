// The table of collectives: one row each, and the buffers it lays out for a call (sizes by hand, nccl-tests'
// in-place offsets). No GPU needed.
#include "benchmarks/nccl/collective_table.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace gpubench {
namespace {

constexpr std::size_t kGiBFloats = (std::size_t{1} << 30) / sizeof(float);

TEST(CollectiveTable, OneRowPerCollectiveAllReduceFirst) {
  const std::vector<CollectiveSpec>& table = collective_table();
  ASSERT_EQ(table.size(), std::size(kEveryCollective));
  EXPECT_EQ(table.front().kind, Collective::AllReduce) << "its ids come first, as before the other collectives";
  std::set<Collective> seen;
  for (const CollectiveSpec& spec : table) {
    EXPECT_TRUE(seen.insert(spec.kind).second) << collective_id_name(spec.kind);
    EXPECT_EQ(&collective_spec(spec.kind), &spec);
    EXPECT_NE(spec.enqueue, nullptr);
    EXPECT_EQ(spec.tuning_name == nullptr, spec.point_to_point) << "NCCL reports a choice for collectives only";
  }
}

TEST(CollectiveTable, InPlaceAndPointToPointAsNcclTestsHasThem) {
  for (const CollectiveSpec& spec : collective_table()) {
    const bool p2p = spec.kind == Collective::AllToAll || spec.kind == Collective::SendRecv;
    EXPECT_EQ(spec.point_to_point, p2p) << collective_id_name(spec.kind);
    EXPECT_EQ(spec.has_in_place, !p2p) << collective_id_name(spec.kind);
  }
  EXPECT_TRUE(collective_spec(Collective::AllReduce).reduces);
  EXPECT_TRUE(collective_spec(Collective::ReduceScatter).reduces);
  EXPECT_TRUE(collective_spec(Collective::Reduce).reduces);
  EXPECT_FALSE(collective_spec(Collective::AllGather).reduces);
  EXPECT_TRUE(collective_spec(Collective::Broadcast).rooted);
  EXPECT_TRUE(collective_spec(Collective::Reduce).rooted);
  EXPECT_FALSE(collective_spec(Collective::AllReduce).rooted);
}

TEST(CollectiveTable, NamesRoundTrip) {
  for (Collective collective : kEveryCollective) {
    EXPECT_EQ(collective_from_id_name(collective_id_name(collective)), collective);
  }
  EXPECT_EQ(collective_id_name(Collective::ReduceScatter), "reducescatter");
  EXPECT_EQ(collective_from_id_name("all_reduce"), std::nullopt);
}

TEST(CallShape, OneGiBAmongFourRanksByHand) {
  const auto shape = [](Collective collective) { return call_shape(collective_spec(collective), std::size_t{1} << 30, 4); };
  // Buffers of one block: block, send and receive are the whole size.
  for (Collective collective : {Collective::AllReduce, Collective::Broadcast, Collective::Reduce, Collective::SendRecv}) {
    EXPECT_EQ(shape(collective).block, kGiBFloats);
    EXPECT_EQ(shape(collective).send_count, kGiBFloats);
    EXPECT_EQ(shape(collective).recv_count, kGiBFloats);
  }
  // All-gather: each rank sends a quarter and receives the whole.
  EXPECT_EQ(shape(Collective::AllGather).block, kGiBFloats / 4);
  EXPECT_EQ(shape(Collective::AllGather).send_count, kGiBFloats / 4);
  EXPECT_EQ(shape(Collective::AllGather).recv_count, kGiBFloats);
  // Reduce-scatter: the other way round.
  EXPECT_EQ(shape(Collective::ReduceScatter).block, kGiBFloats / 4);
  EXPECT_EQ(shape(Collective::ReduceScatter).send_count, kGiBFloats);
  EXPECT_EQ(shape(Collective::ReduceScatter).recv_count, kGiBFloats / 4);
  // All-to-all: a quarter to and from each rank.
  EXPECT_EQ(shape(Collective::AllToAll).block, kGiBFloats / 4);
  EXPECT_EQ(shape(Collective::AllToAll).send_count, kGiBFloats);
  EXPECT_EQ(shape(Collective::AllToAll).recv_count, kGiBFloats);
  for (Collective collective : kEveryCollective) EXPECT_EQ(shape(collective).bytes(), std::size_t{1} << 30);
}

TEST(CallShape, SmallSizesMayNotSplitAmongTheRanks) {
  const CollectiveSpec& gather = collective_spec(Collective::AllGather);
  EXPECT_EQ(call_shape(gather, 8, 2).block, 1u) << "two floats, one per rank";
  EXPECT_EQ(call_shape(gather, 8, 3).block, 0u) << "two floats cannot make three blocks";
  EXPECT_EQ(call_shape(collective_spec(Collective::AllReduce), 8, 3).block, 2u);
  // Rounded down to whole blocks: 1 KiB among 3 ranks is 3 blocks of 85 floats, 1020 B.
  EXPECT_EQ(call_shape(collective_spec(Collective::AllToAll), 1024, 3).block, 85u);
  EXPECT_EQ(call_shape(collective_spec(Collective::AllToAll), 1024, 3).bytes(), 1020u);
}

TEST(InPlace, OffsetsAreNcclTests) {
  const auto offsets = [](Collective collective, int rank) {
    const CollectiveSpec& spec = collective_spec(collective);
    return in_place_offsets(spec, call_shape(spec, 4096, 4), rank);  // blocks of 256 floats where split
  };
  // All-gather: the send buffer is the rank's own block of the receive buffer.
  EXPECT_EQ(offsets(Collective::AllGather, 2).send, 512u);
  EXPECT_EQ(offsets(Collective::AllGather, 2).recv, 0u);
  // Reduce-scatter: the receive buffer is the rank's own block of the send buffer.
  EXPECT_EQ(offsets(Collective::ReduceScatter, 3).send, 0u);
  EXPECT_EQ(offsets(Collective::ReduceScatter, 3).recv, 768u);
  // The rest: one buffer for both.
  for (Collective collective : {Collective::AllReduce, Collective::Broadcast, Collective::Reduce}) {
    EXPECT_EQ(offsets(collective, 3).send, 0u);
    EXPECT_EQ(offsets(collective, 3).recv, 0u);
  }
}

}  // namespace
}  // namespace gpubench
