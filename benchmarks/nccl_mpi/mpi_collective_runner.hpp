#pragma once
// One collective benchmark (any row of nccl/collective_table.hpp) across the processes of an MPI job, each driving
// its own GPU: every rank calls run() with the same arguments, in the same order. The measuring is CollectiveBench's,
// as in gpubench-micro, so ids, busbw and the check are the nccl family's; this adds
// what spreading it over processes needs: one communicator made from a unique id that rank 0 broadcasts, a
// barrier before the timing gates open, the slowest rank's time for each call (MPI max, so that every rank
// takes the same decisions), and every rank's check sent to rank 0.
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "benchmarks/common/failure_kind.hpp"
#include "benchmarks/nccl/collective_report.hpp"
#include "benchmarks/nccl/collective_sweep.hpp"
#include "benchmarks/nccl/nccl_communicators.hpp"
#include "benchmarks/nccl/nccl_debug_log.hpp"
#include "benchmarks/nccl_mpi/mpi_world.hpp"

namespace gpubench {

struct MpiCollectiveOutcome {
  enum class Kind { Measured, Skipped, Failed };
  Kind kind = Kind::Measured;
  std::string reason;                 // for Skipped and Failed
  FailureKind failure = FailureKind::Unknown;  // for Failed
  std::vector<double> busbw_samples;  // GB/s, one per repetition (Measured)
  CollectiveMeasurement median;       // the repetition whose busbw is the median, for the params
};

class MpiCollectiveRunner {
 public:
  // `debug_log` is rank 0's window on NCCL's choice; `min_seconds` the timed time per repetition.
  MpiCollectiveRunner(const MpiWorld& world, int device, NcclDebugLog& debug_log, NcclCombination forced,
                     int repetitions, double min_seconds);

  // Collective. Skipped and Failed outcomes are known to every rank; an error after which the ranks could no
  // longer agree (a CUDA error, an NCCL error other than a refusal) throws, and the caller ends the job.
  MpiCollectiveOutcome run(const SweepPoint& point);

 private:
  // Makes the communicator when there is none (collective). Sets *refusal when NCCL refused its settings.
  NcclCommunicators* communicators(std::string* refusal);
  // The first non-empty reason of any rank, on every rank.
  std::string agreed_reason(const std::string& mine) const;

  const MpiWorld& world_;
  int device_;
  NcclDebugLog& debug_log_;
  NcclCombination forced_;
  int repetitions_;
  double min_seconds_;
  std::unique_ptr<NcclCommunicators> communicators_;
  std::optional<std::string> init_refusal_;
  std::map<std::pair<Collective, std::size_t>, std::string> refused_;  // NCCL's refusals, by collective and size
};

}  // namespace gpubench
