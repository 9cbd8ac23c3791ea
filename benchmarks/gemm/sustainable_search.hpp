#pragma once
// The maximum sustainable matmul search, gemm/max_sustainable/PRECISION (full suite): the shape whose throughput is
// highest while the GPU is held at its power limit, which is what the GEMMs of a long training run get, against
// gemm/max_achievable's bursts from idle. The method follows mamf-finder v4's `--search auto` (Stas Bekman,
// ml-engineering) in its steps: soak, scout, refine, confirm, lock-in. The candidates come from what decides a large
// GEMM's efficiency once the Tensor Cores are busy, not from a grid:
//   - Wave quantization: cuBLASLt's Hopper kernels cover the M x N output in tiles of 128 x 256, one tile an SM at a
//     time, so an output of a whole number of waves (tiles = waves x SMs) leaves no SM idle in the last wave.
//   - Arithmetic intensity: K sets how much work each tile does between loading its operands and writing its
//     output, so a longer K spends a smaller share of the time outside the main loop.
// The refinement then steps K and the wave count around the best scouts. Plain C++, usable by CPU tests.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "benchmarks/gemm/gemm_problem.hpp"
#include "benchmarks/gemm/shape_search.hpp"

namespace gpubench {

// The output tile the wave count is reckoned in (cuBLASLt's usual Hopper BF16/FP8 tile).
inline constexpr std::int64_t kWaveTileM = 128;
inline constexpr std::int64_t kWaveTileN = 256;
// M and N stay within this range, where the operands of every precision fit an 80 GB GPU.
inline constexpr std::int64_t kSustainableMinDimension = 2048;
inline constexpr std::int64_t kSustainableMaxDimension = 16384;
// The scout's wave counts and K; the refinement steps them by these.
inline const std::vector<int> kScoutWaves = {4, 8, 12, 16, 20};
inline const std::vector<std::int64_t> kScoutK = {8192, 16384, 24576};
inline constexpr int kRefineWaveStep = 2;
inline constexpr std::int64_t kRefineKStep = 4096;
inline constexpr std::int64_t kSustainableMaxK = 32768;
// How many of the best scouts are refined, and how many of the best shapes so far are confirmed.
inline constexpr std::size_t kRefinedScouts = 3;
inline constexpr std::size_t kConfirmedShapes = 4;

// The M x N layouts of `waves` whole waves on `sm_count` SMs within the dimension range: the most nearly square one
// and its transpose (cuBLASLt is not symmetric in M and N), or nothing when no layout fits.
inline std::vector<std::pair<std::int64_t, std::int64_t>> wave_layouts(int waves, int sm_count) {
  const std::int64_t tiles = static_cast<std::int64_t>(waves) * sm_count;
  std::optional<std::pair<std::int64_t, std::int64_t>> squarest;
  for (std::int64_t rows = 1; rows <= tiles; ++rows) {
    if (tiles % rows != 0) continue;
    const std::int64_t m = kWaveTileM * rows;
    const std::int64_t n = kWaveTileN * (tiles / rows);
    if (m < kSustainableMinDimension || m > kSustainableMaxDimension || n < kSustainableMinDimension ||
        n > kSustainableMaxDimension) {
      continue;
    }
    const auto squareness = [](std::int64_t a, std::int64_t b) { return std::abs(std::log(static_cast<double>(a) / b)); };
    if (!squarest || squareness(m, n) < squareness(squarest->first, squarest->second)) squarest = {{m, n}};
  }
  if (!squarest) return {};
  std::vector<std::pair<std::int64_t, std::int64_t>> layouts = {*squarest};
  const auto [m, n] = *squarest;
  // The transpose is a layout of the same wave count only where N is a multiple of the tile's M and M of its N.
  if (m != n && n % kWaveTileM == 0 && m % kWaveTileN == 0) layouts.push_back({n, m});
  return layouts;
}

inline void add_unique(std::vector<GemmShape>& shapes, const GemmShape& shape) {
  if (std::find(shapes.begin(), shapes.end(), shape) == shapes.end()) shapes.push_back(shape);
}

// The scout: every wave count of kScoutWaves, each layout, each K of kScoutK.
inline std::vector<GemmShape> scout_shapes(int sm_count) {
  std::vector<GemmShape> shapes;
  for (int waves : kScoutWaves) {
    for (const auto& [m, n] : wave_layouts(waves, sm_count)) {
      for (std::int64_t k : kScoutK) add_unique(shapes, {m, n, k});
    }
  }
  return shapes;
}

// The wave count of an M x N output on `sm_count` SMs, or nothing when it is not a whole number of waves.
inline std::optional<int> whole_waves(const GemmShape& shape, int sm_count) {
  if (shape.m % kWaveTileM != 0 || shape.n % kWaveTileN != 0) return std::nullopt;
  const std::int64_t tiles = (shape.m / kWaveTileM) * (shape.n / kWaveTileN);
  if (tiles % sm_count != 0) return std::nullopt;
  return static_cast<int>(tiles / sm_count);
}

// Around each of `best` (the fastest scouts), the shapes not yet in `measured`: K one step shorter and longer, and
// the layouts of one step fewer and more waves at the same K.
inline std::vector<GemmShape> refine_shapes(const std::vector<ShapeThroughput>& best, const std::vector<GemmShape>& measured,
                                            int sm_count) {
  std::vector<GemmShape> shapes;
  const auto consider = [&](const GemmShape& shape) {
    if (std::find(measured.begin(), measured.end(), shape) == measured.end()) add_unique(shapes, shape);
  };
  for (const ShapeThroughput& scout : best) {
    const GemmShape& s = scout.shape;
    if (s.k - kRefineKStep >= kRefineKStep) consider({s.m, s.n, s.k - kRefineKStep});
    if (s.k + kRefineKStep <= kSustainableMaxK) consider({s.m, s.n, s.k + kRefineKStep});
    if (const std::optional<int> waves = whole_waves(s, sm_count)) {
      for (int step : {-kRefineWaveStep, kRefineWaveStep}) {
        if (*waves + step < 1) continue;
        for (const auto& [m, n] : wave_layouts(*waves + step, sm_count)) consider({m, n, s.k});
      }
    }
  }
  return shapes;
}

}  // namespace gpubench
