#pragma once
// What the nccl family measures in a process, by suite and by the NCCL_ALGO / NCCL_PROTO it was started with
// (the harness runs one process per combination, benchmarks/catalogue.cpp), and the names it gives each
// benchmark. Shared by gpubench-micro and gpubench-mpi (which runs the busbw points, sweep_points).
#include <cstddef>
#include <string>
#include <vector>

#include "benchmarks/common/context.hpp"
#include "benchmarks/common/transfer_sizes.hpp"
#include "benchmarks/nccl/collective_kind.hpp"
#include "benchmarks/nccl/nccl_combination.hpp"

namespace gpubench {

enum class Placement { OutOfPlace, InPlace };

const char* placement_name(Placement placement);  // "out_of_place", "in_place"

// The all-reduce's sizes, 8 B to 4 GiB: every power of two in the full suite; every eighth in the quick one, plus
// 1 GiB and 4 GiB, so that those ids exist in both.
std::vector<std::size_t> allreduce_sizes(Suite suite);

// The all-reduce's placements: out of place and in place, except for a forced algorithm and protocol in the quick
// suite: those six run out of place only, which keeps the quick suite to minutes on a multi-GPU node; NCCL's own
// choice runs both.
std::vector<Placement> allreduce_placements(Suite suite, const NcclCombination& forced);

// One busbw benchmark.
struct SweepPoint {
  Collective collective;
  std::size_t bytes;  // the S of algbw (bus_bandwidth.hpp)
  Placement placement;
};

// This process's busbw benchmarks, collective by collective in the table's order, then by size and placement:
// - all-reduce: allreduce_sizes and allreduce_placements, in every process (the ids baselines key on).
// - the other collectives, full suite: every power of two from 8 B to 4 GiB, out of place and, where the
//   collective has one, in place; in every process, except all-to-all and send/recv, which NCCL_ALGO does not
//   concern and which run only where NCCL chooses (auto).
// - the other collectives, quick suite: 4 KiB (latency) and 1 GiB (bandwidth), out of place, where NCCL chooses.
std::vector<SweepPoint> sweep_points(Suite suite, const NcclCombination& forced);

// nccl/<collective>/<algo>/<proto>/<size>/<placement>, e.g. nccl/allgather/ring/simple/1GiB/out_of_place.
std::string benchmark_name(const SweepPoint& point, const NcclCombination& forced);

// How one call is put on the streams: plain NCCL calls, or the replay of CUDA Graphs they were captured into.
enum class Launch { Plain, Graph };

const char* launch_name(Launch launch);  // "plain", "graph"

// One time-per-call benchmark, host-timed.
struct LaunchPoint {
  Collective collective;
  std::size_t bytes;
  Launch launch;
};

// Small sizes, where launching is a large part of a call (8 B, 256 B, 4 KiB, 64 KiB), out of place, plain and
// graph for each collective: in the full suite's process where NCCL chooses; none elsewhere.
std::vector<LaunchPoint> launch_points(Suite suite, const NcclCombination& forced);

// nccl/<collective>/<plain|graph>/<size>, e.g. nccl/broadcast/graph/4KiB.
std::string launch_benchmark_name(const LaunchPoint& point);

// How many calls one timed sample holds, back to back behind one gate (as nccl-tests times its iterations): a
// sample of a small collective is then long enough to time well, and the host's cost of enqueuing each call
// (several times a small call's duration) is paid once per call rather than with a wait between calls. In place,
// each call of a sample works on the previous one's result; an all-reduce's grows as ranks^calls, so fewer calls
// are chained where many ranks could overflow a float (ranks^calls stays below 1e30). The other reductions grow
// slower and take the same bound.
int calls_per_sample(std::size_t bytes, int ranks, Placement placement);

}  // namespace gpubench
