#pragma once
// The maximum achievable matmul search (after Stas Bekman's mamf-finder, ml-engineering): a datasheet peak is not
// what a GPU can reach, so the full suite searches a grid of shapes for the fastest and reports its throughput,
// against which every other GEMM figure can be read. Plain C++, usable by CPU tests.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "benchmarks/gemm/gemm_problem.hpp"

namespace gpubench {

// Every dimension from this list, for each of M, N and K: 27 shapes from 4096 to 16384, where an H200's Tensor
// Cores are busy and the operands still fit every precision's memory. Each is tuned like any fixed shape (about
// half a second), so the search takes some 15 s a precision on an H200.
inline const std::vector<std::int64_t> kSearchDimensions = {4096, 8192, 16384};
// The best shapes of the sustained search are each timed again as bursts from idle, as the fixed shapes' burst
// figure is: under sustained load a power-capped GPU clocks lower, which ranks the shapes fairly but is not the
// most the chip can do.
inline constexpr std::size_t kSearchFinalists = 3;

inline std::vector<GemmShape> search_grid() {
  std::vector<GemmShape> grid;
  for (std::int64_t m : kSearchDimensions) {
    for (std::int64_t n : kSearchDimensions) {
      for (std::int64_t k : kSearchDimensions) grid.push_back({m, n, k});
    }
  }
  return grid;
}

struct ShapeThroughput {
  GemmShape shape;
  double tflops = 0;
};

// The `count` fastest, fastest first (fewer when fewer were measured).
inline std::vector<ShapeThroughput> fastest(std::vector<ShapeThroughput> measured, std::size_t count) {
  std::stable_sort(measured.begin(), measured.end(),
                   [](const ShapeThroughput& a, const ShapeThroughput& b) { return a.tflops > b.tflops; });
  if (measured.size() > count) measured.resize(count);
  return measured;
}

}  // namespace gpubench
