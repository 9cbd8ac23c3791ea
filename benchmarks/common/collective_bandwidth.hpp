#pragma once
// Bandwidth of a collective as nccl-tests counts it, so that gpubench's figures and nccl-tests' can be compared:
//   algbw = bytes / time                       (bytes: the size of one rank's buffer)
//   busbw = algbw x 2(n-1)/n  for all-reduce    (n ranks)
// busbw is what each rank's busiest link carried: an optimal ring all-reduce sends and receives 2(n-1)/n times
// the buffer per rank, so busbw can be held against the link's bandwidth whatever the number of ranks.
namespace gpubench {

// Decimal GB/s; 0 when the time is not positive.
constexpr double algorithm_bandwidth_gbps(double bytes, double seconds) {
  return seconds > 0 ? bytes / seconds / 1e9 : 0.0;
}

// 2(n-1)/n; 0 for fewer than one rank.
constexpr double allreduce_bus_factor(int ranks) {
  return ranks > 0 ? 2.0 * (ranks - 1) / ranks : 0.0;
}

constexpr double allreduce_bus_bandwidth_gbps(double bytes, double seconds, int ranks) {
  return algorithm_bandwidth_gbps(bytes, seconds) * allreduce_bus_factor(ranks);
}

}  // namespace gpubench
