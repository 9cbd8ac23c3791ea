#pragma once
// What an NCCL benchmark reports: its check of every rank's output, put in words when something was wrong, and
// its figure (busbw) with the params that say how it was measured. Shared by gpubench-micro and gpubench-mpi.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "benchmarks/nccl/collective_kind.hpp"
#include "benchmarks/nccl/collective_sweep.hpp"
#include "benchmarks/nccl/nccl_combination.hpp"

namespace gpubench {

struct CollectiveSpec;
struct CallShape;

// What one rank's output held. Plain data, so that processes can send it to rank 0 as bytes.
struct RankCheck {
  int rank = 0;
  int device = 0;
  unsigned long long mismatches = 0;
  unsigned long long first_index = 0;  // the first wrong element, when there is one
  float actual = 0;                    // its value ...
  double expected = 0;                 // ... the exact value it should be close to ...
  double tolerance = 0;                // ... and how close
};

// "" when every rank's output was right; otherwise the failure's reason: which collective, rank and GPU, how many
// of `count` elements, and the first wrong one.
std::string describe_mismatches(Collective collective, const std::vector<RankCheck>& checks, std::size_t count);

// One measured (collective, size, placement): the figure is busbw, the rest goes into its params.
struct CollectiveMeasurement {
  Collective collective = Collective::AllReduce;
  std::size_t bytes = 0;  // S: one rank's larger buffer, as called (the size rounded down to whole blocks)
  std::size_t count = 0;  // the count NCCL was given
  Placement placement = Placement::OutOfPlace;
  int ranks = 0;
  double mean_seconds = 0;  // per call, as the slowest rank saw it
  int calls_per_sample = 1;
  NcclCombination forced;
  std::optional<NcclCombination> used;  // as NCCL reported it; unknown when it did not
  std::string mode;                     // "single_process" or "mpi"
};

// A measurement of one call of `shape` on `ranks` ranks, all but its time: the caller sets mean_seconds and
// calls_per_sample once it has timed the calls. `mode` is "single_process" or "mpi".
CollectiveMeasurement measurement_of(const CollectiveSpec& spec, const CallShape& shape, Placement placement, int ranks,
                                     const NcclCombination& forced, std::optional<NcclCombination> used,
                                     std::string mode);

double busbw_gbps(const CollectiveMeasurement& measurement);

// collective, time_us (per call), algbw_GBps, bytes, count, ranks, placement, calls_per_sample, datatype, op
// ("sum", or "none" for a collective that does not reduce), root (broadcast and reduce), nccl_algo_forced,
// nccl_proto_forced, nccl_algo_used, nccl_proto_used ("unknown" when NCCL did not say), mode.
std::map<std::string, std::string> collective_params(const CollectiveMeasurement& measurement);

// "%.6g": how the params write a time or a bandwidth.
std::string param_number(double value);

}  // namespace gpubench
