#pragma once
// The launches the blocksize family compares: a block size and how many blocks each SM gets, and how far the
// worst falls behind the best. Plain C++, usable by CPU tests.
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/common/context.hpp"

namespace gpubench {

struct LaunchShape {
  int block = 256;
  int blocks_per_sm = 0;  // 0: as many as fit on an SM at once (the occupancy calculator's answer)
};

// Block sizes 32 to 1024, each with 1, 2 and 4 blocks per SM and with as many as fit; the quick suite keeps the
// corners (the smallest and largest block, one block per SM and a full SM).
inline std::vector<LaunchShape> launch_shapes(Suite suite) {
  const std::vector<int> blocks = suite == Suite::Quick ? std::vector<int>{32, 1024}
                                                        : std::vector<int>{32, 64, 128, 256, 512, 1024};
  const std::vector<int> per_sm = suite == Suite::Quick ? std::vector<int>{1, 0} : std::vector<int>{1, 2, 4, 0};
  std::vector<LaunchShape> shapes;
  for (int block : blocks) {
    for (int n : per_sm) shapes.push_back({block, n});
  }
  return shapes;
}

// "block32/1_per_sm", "block1024/max_per_sm": the shape as it appears in metric ids.
inline std::string shape_name(const LaunchShape& shape) {
  return "block" + std::to_string(shape.block) + "/" +
         (shape.blocks_per_sm == 0 ? std::string("max") : std::to_string(shape.blocks_per_sm)) + "_per_sm";
}

// Blocks in the grid: blocks_per_sm on every SM, or as many as fit (`resident_per_sm`) for the 0 shape. A grid of
// more blocks than fit at once runs in waves; the stream kernel's grid-stride loop covers the arrays either way.
inline int grid_of(const LaunchShape& shape, int sm_count, int resident_per_sm) {
  return (shape.blocks_per_sm == 0 ? resident_per_sm : shape.blocks_per_sm) * sm_count;
}

// Which of several launches had the best and which the worst bandwidth, and the best over the worst: how much a
// poorly chosen launch gives away.
struct BestAndWorst {
  std::size_t best = 0;
  std::size_t worst = 0;
  double ratio = 1;
};

// Throws std::invalid_argument on an empty list or a bandwidth that is not positive.
inline BestAndWorst best_and_worst(const std::vector<double>& bandwidths) {
  if (bandwidths.empty()) throw std::invalid_argument("best and worst of no bandwidths");
  const auto [worst, best] = std::minmax_element(bandwidths.begin(), bandwidths.end());
  if (*worst <= 0) throw std::invalid_argument("best and worst of a bandwidth that is not positive");
  return {static_cast<std::size_t>(best - bandwidths.begin()), static_cast<std::size_t>(worst - bandwidths.begin()),
          *best / *worst};
}

}  // namespace gpubench
