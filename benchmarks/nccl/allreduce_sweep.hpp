#pragma once
// The NCCL all-reduce benchmark, shared by gpubench-micro (one process driving every GPU) and gpubench-mpi (one
// process per GPU): the sizes and ids, one (size, placement) on this process's ranks — random inputs, warm-up,
// one timed call at a time — the check of the result against the expected sum, and the figure with its params.
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "benchmarks/common/context.hpp"
#include "benchmarks/common/copy_gate.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/event_timer.hpp"
#include "benchmarks/common/transfer_sizes.hpp"
#include "benchmarks/nccl/nccl_combination.hpp"
#include "benchmarks/nccl/nccl_communicators.hpp"

namespace gpubench {

enum class Placement { OutOfPlace, InPlace };

const char* placement_name(Placement placement);  // "out_of_place", "in_place"

// 8 B to 4 GiB: every power of two in the full suite; every eighth in the quick one, plus 1 GiB and 4 GiB, so
// that those ids exist in both.
std::vector<std::size_t> allreduce_sizes(Suite suite);

// Out of place and in place, except for a forced algorithm and protocol in the quick suite: those six run out
// of place only, which keeps the quick suite to minutes on a multi-GPU node; NCCL's own choice runs both.
std::vector<Placement> allreduce_placements(Suite suite, const NcclCombination& forced);

// nccl/allreduce/<algo>/<proto>/<size>/<placement>, e.g. nccl/allreduce/ring/simple/1GiB/out_of_place.
std::string allreduce_benchmark_name(const NcclCombination& forced, std::size_t bytes, Placement placement);

// How many calls one timed sample holds, back to back behind one gate (as nccl-tests times its iterations): a
// sample of a small all-reduce is then long enough to time well, and the host's cost of enqueuing each call
// (several times a small call's duration) is paid once per call rather than with a wait between calls. In place,
// each call of a sample sums the previous one's result, so fewer calls are chained where many ranks could
// overflow a float (ranks^calls stays below 1e30).
int calls_per_sample(std::size_t bytes, int ranks, Placement placement);

// What one rank's output held. Plain data, so that processes can send it to rank 0 as bytes.
struct RankCheck {
  int rank = 0;
  int device = 0;
  unsigned long long mismatches = 0;
  unsigned long long first_index = 0;  // the first wrong element, when there is one
  float actual = 0;                    // its value ...
  double expected = 0;                 // ... the exact sum it should be close to ...
  double tolerance = 0;                // ... and how close
};

// "" when every rank's output was right; otherwise the failure's reason: which rank and GPU, how many of
// `count` elements, and the first wrong one.
std::string describe_mismatches(const std::vector<RankCheck>& checks, std::size_t count);

// One measured (size, placement): the figure is busbw, the rest goes into its params.
struct AllReduceMeasurement {
  std::size_t bytes = 0;
  Placement placement = Placement::OutOfPlace;
  int ranks = 0;
  double mean_seconds = 0;  // per call, as the slowest rank saw it
  int calls_per_sample = 1;
  NcclCombination forced;
  std::optional<NcclCombination> used;  // as NCCL reported it; unknown when it did not
  std::string mode;                     // "single_process" or "mpi"
};

double allreduce_busbw_gbps(const AllReduceMeasurement& measurement);

// time_us (per call), algbw_GBps, bytes, ranks, placement, calls_per_sample, nccl_algo_forced, nccl_proto_forced,
// nccl_algo_used, nccl_proto_used ("unknown" when NCCL did not say), datatype, op, mode.
std::map<std::string, std::string> allreduce_params(const AllReduceMeasurement& measurement);

// One size and placement on every local rank of `communicators`, which must outlive it. Each call is grouped
// over the local ranks (ncclGroupStart/End), so one process can drive several GPUs.
class AllReduceBench {
 public:
  // Allocates and fills the buffers (a 4 GiB size takes 8 GiB per GPU out of place, 4 GiB in place).
  AllReduceBench(const NcclCommunicators& communicators, std::size_t bytes, Placement placement);
  AllReduceBench(const AllReduceBench&) = delete;
  AllReduceBench& operator=(const AllReduceBench&) = delete;

  std::size_t count() const { return count_; }

  // A few calls, each waited for: the first builds NCCL's connections for this algorithm and protocol. Throws
  // NcclError; refused() says NCCL will not run the combination it was given. Out of place, the outputs are
  // then poisoned with NaN, so that the check fails unless the timed calls wrote them.
  void warm_up();

  // In place, each call replaces the inputs with their sum: this puts them back before a timed sample, so that
  // every sample starts from random data, and waits until it is done.
  void refresh_inputs();

  // On every local rank: a closed `gate`, the start event, `calls` calls, the stop event. The caller opens the
  // gate (after every rank has enqueued, in gpubench-mpi), so that every GPU starts at once and the host's time
  // to enqueue is not measured.
  void enqueue_timed(CopyGate& gate, int calls);

  // Each local rank's time for the timed sample, from its own events; waits for it.
  std::vector<double> elapsed_seconds() const;

  // Each local rank's output against the expected sum, after the timed samples: out of place, the output of the
  // last call; in place, of one more call on fresh inputs (a sample's calls feed each other, so after one the
  // buffers hold a multiple of the sum). Collective, like a call.
  std::vector<RankCheck> check();

 private:
  struct RankState {
    const NcclCommunicators::LocalRank* local = nullptr;
    std::unique_ptr<DeviceBuffer<float>> input;   // also the output, in place
    std::unique_ptr<DeviceBuffer<float>> output;  // out of place only
    std::unique_ptr<EventTimer> timer;
    float* result() const { return output ? output->get() : input->get(); }
  };

  void enqueue_call();
  void synchronize() const;

  const NcclCommunicators& communicators_;
  std::size_t count_;
  Placement placement_;
  std::vector<RankState> ranks_;
};

}  // namespace gpubench
