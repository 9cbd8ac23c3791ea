#pragma once
// Bandwidth of a collective as nccl-tests counts it (nccl-tests, doc/PERFORMANCE.md), so that gpubench's figures
// and nccl-tests' can be compared:
//   algbw = S / t        S: the bytes of one rank's larger buffer, t: the time of one call
//   busbw = algbw x factor(n), n ranks:
//     all-reduce                          2(n-1)/n   S: the buffer
//     all-gather                          (n-1)/n    S: the receive buffer, n blocks (each rank sends one)
//     reduce-scatter                      (n-1)/n    S: the send buffer, n blocks (each rank receives one)
//     all-to-all                          (n-1)/n    S: the send buffer, n blocks (one per peer; so is the receive one)
//     broadcast, reduce, send/recv        1          S: the buffer
// busbw is what each rank's busiest link carried, so it can be held against the link's bandwidth whatever the
// number of ranks: an optimal all-gather receives the n-1 blocks that are not its own, (n-1)/n of S; an optimal
// all-reduce is a reduce-scatter and an all-gather, twice that; a broadcast, a reduce (pipelined along a chain)
// and a send move S over every link once.
// Plain C++, so the harness (`gpubench show`) and the CPU tests use the same definitions.
#include "benchmarks/nccl/collective_kind.hpp"

namespace gpubench {

// Decimal GB/s; 0 when the time is not positive.
constexpr double algorithm_bandwidth_gbps(double bytes, double seconds) {
  return seconds > 0 ? bytes / seconds / 1e9 : 0.0;
}

// busbw / algbw for `ranks` ranks; 0 for fewer than one rank.
constexpr double bus_factor(Collective collective, int ranks) {
  if (ranks <= 0) return 0.0;
  const double n = ranks;
  switch (collective) {
    case Collective::AllReduce: return 2.0 * (n - 1) / n;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll: return (n - 1) / n;
    case Collective::Broadcast:
    case Collective::Reduce:
    case Collective::SendRecv: return 1.0;
  }
  return 0.0;
}

constexpr double bus_bandwidth_gbps(Collective collective, double bytes, double seconds, int ranks) {
  return algorithm_bandwidth_gbps(bytes, seconds) * bus_factor(collective, ranks);
}

}  // namespace gpubench
