#pragma once
// One collective at one size and placement on every local rank of a set of communicators: random inputs,
// warm-up, timed calls, and the check of every rank's output against what the collective must produce. Shared
// by gpubench-micro (one process driving every GPU) and gpubench-mpi (one process per GPU).
#include <memory>
#include <vector>

#include "benchmarks/common/copy_gate.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/event_timer.hpp"
#include "benchmarks/nccl/collective_report.hpp"
#include "benchmarks/nccl/collective_sweep.hpp"
#include "benchmarks/nccl/collective_table.hpp"
#include "benchmarks/nccl/nccl_communicators.hpp"

namespace gpubench {

// Each call is grouped over the local ranks (ncclGroupStart/End), so one process can drive several GPUs.
// `communicators` and `spec` must outlive it.
class CollectiveBench {
 public:
  // Allocates and fills the buffers: out of place a send and a receive buffer per GPU (a 4 GiB all-to-all takes
  // 8 GiB), in place one. Throws std::invalid_argument when `shape` has no block, or for in place where `spec`
  // has no in-place form.
  CollectiveBench(const NcclCommunicators& communicators, const CollectiveSpec& spec, const CallShape& shape,
                  Placement placement);
  CollectiveBench(const CollectiveBench&) = delete;
  CollectiveBench& operator=(const CollectiveBench&) = delete;

  const CallShape& shape() const { return shape_; }

  // A few calls, each waited for: the first builds NCCL's connections for this algorithm and protocol. Throws
  // NcclError; refused() says NCCL will not run the combination it was given. Out of place, the receive buffers
  // are then poisoned with NaN, so that the check fails unless the timed calls wrote them.
  void warm_up();

  // In place, each call replaces the inputs with its result: this puts them back before a timed sample (the whole
  // buffer poisoned, then the send part filled), so that every sample starts from random data, and waits.
  void refresh_inputs();

  // On every local rank: a closed `gate`, the start event, `calls` calls, the stop event. The caller opens the
  // gate (after every rank has enqueued, in gpubench-mpi), so that every GPU starts at once and the host's time
  // to enqueue is not measured.
  void enqueue_timed(CopyGate& gate, int calls);

  // Each local rank's time for the timed sample, from its own events; waits for it.
  std::vector<double> elapsed_seconds() const;

  // `calls` calls on every local rank's stream, without waiting: for calls timed by the host, and for stream
  // capture.
  void enqueue_calls(int calls);

  // Waits until every local rank's stream is idle.
  void synchronize() const;

  // Each local rank's output against what the collective must produce, after the timed calls: out of place, the
  // output of the last call; in place, of one more call on fresh inputs (a sample's calls feed each other).
  // Collective, like a call.
  std::vector<RankCheck> check();

 private:
  struct RankState {
    const NcclCommunicators::LocalRank* local = nullptr;
    std::unique_ptr<DeviceBuffer<float>> buffer;       // the receive buffer; in place, also the send buffer
    std::unique_ptr<DeviceBuffer<float>> send_buffer;  // out of place only
    float* send = nullptr;  // where the send and receive buffers start in those
    float* recv = nullptr;
    std::unique_ptr<EventTimer> timer;
  };

  void enqueue_call();
  RankCheck check_rank(const RankState& state) const;

  const NcclCommunicators& communicators_;
  const CollectiveSpec& spec_;
  CallShape shape_;
  Placement placement_;
  std::vector<RankState> ranks_;
};

}  // namespace gpubench
