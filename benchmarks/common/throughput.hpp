#pragma once
// Byte accounting in one place: a family says how many bytes one timed iteration moves, the rate follows.
#include <benchmark/benchmark.h>

namespace gpubench {

// GB/s (10^9 bytes a second) of `bytes_per_iteration` moved in each of `iterations` iterations that took
// `seconds` together.
inline double gigabytes_per_second(double bytes_per_iteration, benchmark::IterationCount iterations, double seconds) {
  return bytes_per_iteration * iterations / seconds / 1e9;
}

}  // namespace gpubench
