#pragma once
// One row per collective the nccl family measures: how one rank's buffers are laid out, what in place means for it,
// whether NCCL's algorithm settings apply to it, and its NCCL call. Registration walks the table
// (collective_sweep.hpp) and CollectiveBench runs a row (collective_bench.hpp). Two columns are functions of the
// kind kept beside their kin: what each output element must hold, kernels::expected_output (collective_check.cuh,
// device code), and busbw's factor, bus_factor (bus_bandwidth.hpp, plain C++ the harness reads too).
#include <nccl.h>

#include <cstddef>
#include <string>
#include <vector>

#include "benchmarks/nccl/collective_kind.hpp"

namespace gpubench {

// A buffer holds one block, or one block per rank (rank r's at r x block).
enum class Blocks { One, PerRank };

// One rank's part of one call.
struct RankCall {
  const float* send = nullptr;
  float* recv = nullptr;
  std::size_t block = 0;  // the count NCCL is given
  int rank = 0;
  int ranks = 0;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
};

struct CollectiveSpec {
  Collective kind;
  const char* nccl_call;    // named in errors: "ncclAllReduce"
  const char* tuning_name;  // as NCCL's tuning lines name it ("AllGather"); nullptr where NCCL prints none
  Blocks send_blocks;
  Blocks recv_blocks;
  // nccl-tests' in-place forms: one buffer, the send buffer at the rank's block of the receive buffer (all-gather),
  // the receive buffer at the rank's block of the send buffer (reduce-scatter), or both the same. All-to-all and
  // send/recv have none: in place, a rank would overwrite what it has yet to send.
  bool has_in_place;
  // Send and receive between pairs of ranks: NCCL_ALGO does not apply (NCCL chooses no algorithm for them and its
  // tuning lines say nothing), so they run only where NCCL makes its own choice.
  bool point_to_point;
  bool reduces;  // float sum
  bool rooted;   // at kernels::kCollectiveRoot
  // One rank's NCCL call(s), inside the caller's group.
  ncclResult_t (*enqueue)(const RankCall& call);
};

// Every collective, all-reduce first.
const std::vector<CollectiveSpec>& collective_table();
const CollectiveSpec& collective_spec(Collective kind);

// The buffers of one call of `bytes` (the S of algbw) among `ranks` ranks, in floats.
struct CallShape {
  std::size_t block = 0;       // 0: `bytes` holds fewer floats than the larger buffer has blocks
  std::size_t send_count = 0;  // one rank's send buffer
  std::size_t recv_count = 0;  // one rank's receive buffer
  std::size_t bytes() const { return (send_count > recv_count ? send_count : recv_count) * sizeof(float); }
};

// The larger buffer is `bytes` (rounded down to whole blocks, as nccl-tests does).
CallShape call_shape(const CollectiveSpec& spec, std::size_t bytes, int ranks);
// Why a call of `bytes` cannot run when call_shape gives it no float per block: the skip's reason, the same in
// gpubench-micro and gpubench-mpi.
std::string too_small_reason(const CollectiveSpec& spec, std::size_t bytes, int ranks);

// In place, where the send and receive buffers start in the one buffer of max(send, receive) elements.
struct InPlaceOffsets {
  std::size_t send = 0;
  std::size_t recv = 0;
};
InPlaceOffsets in_place_offsets(const CollectiveSpec& spec, const CallShape& shape, int rank);

}  // namespace gpubench
