#include "benchmarks/nccl/collective_table.hpp"

#include <stdexcept>
#include <string>

#include "benchmarks/common/transfer_sizes.hpp"
#include "benchmarks/nccl/collective_check.cuh"

namespace gpubench {
namespace {

using kernels::kCollectiveRoot;

ncclResult_t all_reduce(const RankCall& c) {
  return ncclAllReduce(c.send, c.recv, c.block, ncclFloat, ncclSum, c.comm, c.stream);
}

ncclResult_t all_gather(const RankCall& c) { return ncclAllGather(c.send, c.recv, c.block, ncclFloat, c.comm, c.stream); }

ncclResult_t reduce_scatter(const RankCall& c) {
  return ncclReduceScatter(c.send, c.recv, c.block, ncclFloat, ncclSum, c.comm, c.stream);
}

ncclResult_t broadcast(const RankCall& c) {
  return ncclBroadcast(c.send, c.recv, c.block, ncclFloat, kCollectiveRoot, c.comm, c.stream);
}

ncclResult_t reduce(const RankCall& c) {
  return ncclReduce(c.send, c.recv, c.block, ncclFloat, ncclSum, kCollectiveRoot, c.comm, c.stream);
}

// As nccl-tests' alltoall: a send to and a receive from every rank, this one included.
ncclResult_t all_to_all(const RankCall& c) {
  for (int peer = 0; peer < c.ranks; ++peer) {
    const std::size_t offset = static_cast<std::size_t>(peer) * c.block;
    if (const ncclResult_t status = ncclSend(c.send + offset, c.block, ncclFloat, peer, c.comm, c.stream); status != ncclSuccess) {
      return status;
    }
    if (const ncclResult_t status = ncclRecv(c.recv + offset, c.block, ncclFloat, peer, c.comm, c.stream); status != ncclSuccess) {
      return status;
    }
  }
  return ncclSuccess;
}

// As nccl-tests' sendrecv: a ring, rank r sends to r+1 and receives from r-1.
ncclResult_t send_recv(const RankCall& c) {
  const ncclResult_t sent = ncclSend(c.send, c.block, ncclFloat, (c.rank + 1) % c.ranks, c.comm, c.stream);
  if (sent != ncclSuccess) return sent;
  return ncclRecv(c.recv, c.block, ncclFloat, (c.rank + c.ranks - 1) % c.ranks, c.comm, c.stream);
}

std::size_t blocks_in(Blocks blocks, int ranks) { return blocks == Blocks::PerRank ? static_cast<std::size_t>(ranks) : 1; }

}  // namespace

const std::vector<CollectiveSpec>& collective_table() {
  using C = Collective;
  using B = Blocks;
  // kind, NCCL call, tuning name, send blocks, receive blocks, in place, point to point, reduces, rooted, call
  static const std::vector<CollectiveSpec> table = {
      {C::AllReduce, "ncclAllReduce", "AllReduce", B::One, B::One, true, false, true, false, all_reduce},
      {C::AllGather, "ncclAllGather", "AllGather", B::One, B::PerRank, true, false, false, false, all_gather},
      {C::ReduceScatter, "ncclReduceScatter", "ReduceScatter", B::PerRank, B::One, true, false, true, false, reduce_scatter},
      {C::Broadcast, "ncclBroadcast", "Broadcast", B::One, B::One, true, false, false, true, broadcast},
      {C::Reduce, "ncclReduce", "Reduce", B::One, B::One, true, false, true, true, reduce},
      {C::AllToAll, "ncclSend/ncclRecv", nullptr, B::PerRank, B::PerRank, false, true, false, false, all_to_all},
      {C::SendRecv, "ncclSend/ncclRecv", nullptr, B::One, B::One, false, true, false, false, send_recv},
  };
  return table;
}

const CollectiveSpec& collective_spec(Collective kind) {
  for (const CollectiveSpec& spec : collective_table()) {
    if (spec.kind == kind) return spec;
  }
  throw std::logic_error("no row for collective " + std::string(collective_id_name(kind)));
}

CallShape call_shape(const CollectiveSpec& spec, std::size_t bytes, int ranks) {
  const std::size_t send_blocks = blocks_in(spec.send_blocks, ranks);
  const std::size_t recv_blocks = blocks_in(spec.recv_blocks, ranks);
  CallShape shape;
  shape.block = bytes / sizeof(float) / (send_blocks > recv_blocks ? send_blocks : recv_blocks);
  shape.send_count = shape.block * send_blocks;
  shape.recv_count = shape.block * recv_blocks;
  return shape;
}

std::string too_small_reason(const CollectiveSpec& spec, std::size_t bytes, int ranks) {
  return size_name(bytes) + " holds fewer floats than the " + std::to_string(ranks) + " blocks " +
         std::string(collective_id_name(spec.kind)) + " splits it into among " + std::to_string(ranks) + " ranks";
}

InPlaceOffsets in_place_offsets(const CollectiveSpec& spec, const CallShape& shape, int rank) {
  const std::size_t own_block = static_cast<std::size_t>(rank) * shape.block;
  InPlaceOffsets offsets;
  if (spec.send_blocks == Blocks::One && spec.recv_blocks == Blocks::PerRank) offsets.send = own_block;
  if (spec.send_blocks == Blocks::PerRank && spec.recv_blocks == Blocks::One) offsets.recv = own_block;
  return offsets;
}

}  // namespace gpubench
