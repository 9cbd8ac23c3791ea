#pragma once
// What a GEMM figure is, read from its id and params: its precision, how it was timed (sustained load, or a burst
// from idle) and at which shape. The ids: gemm/<precision>/<MxNxK>/gpuN/tflops (sustained),
// gemm/burst/<precision>/<MxNxK>/gpuN/tflops, gemm/max_achievable/<precision>/gpuN/tflops (the fastest burst of a
// search over shapes; the shape, and its sustained figure, in the params best_shape and best_shape_sustained_tflops),
// gemm/tensor_core_speedup/<MxNxK>/gpuN/speedup. Header-only: `show` and `report` read it.
#include <optional>
#include <string>
#include <vector>

#include "benchmarks/common/metric_id.hpp"
#include "harness/report/id_segments.hpp"
#include "harness/results/results_document.hpp"

namespace gpubench {

enum class GemmTiming { Sustained, Burst, MaxAchievable };

struct GemmFigure {
  std::string precision;
  GemmTiming timing = GemmTiming::Sustained;
  std::string shape;  // "8192x8192x8192"; for the maximum achievable, best_shape ("" when the params lack it)
  std::string gpu;    // "gpu0"
};

inline std::string gemm_param(const Metric& metric, const std::string& name) {
  const auto found = metric.params.find(name);
  return found == metric.params.end() ? "" : found->second;
}

// A GEMM TFLOP/s figure of one GPU; nothing for any other metric.
inline std::optional<GemmFigure> gemm_figure(const Metric& metric) {
  const std::vector<std::string> s = id_segments(metric.id);
  if (s.size() < 5 || s[0] != "gemm" || s.back() != "tflops" || !parse_gpu_segment(s[s.size() - 2])) {
    return std::nullopt;
  }
  const std::string& gpu = s[s.size() - 2];
  if (s.size() == 6 && s[1] == "burst") return GemmFigure{s[2], GemmTiming::Burst, s[3], gpu};
  if (s.size() == 5 && s[1] == "max_achievable") {
    return GemmFigure{s[2], GemmTiming::MaxAchievable, gemm_param(metric, "best_shape"), gpu};
  }
  if (s.size() == 5) return GemmFigure{s[1], GemmTiming::Sustained, s[2], gpu};
  return std::nullopt;
}

// Which kernel measured it: cuBLASLt's algorithm and tile, and how it was chosen (", algo 66 tile 248, cuBLASLt's
// first choice"); a param that differed between repetitions lists each ("tile 201; 31; 201"); "" where not recorded.
inline std::string gemm_kernel_note(const Metric& metric) {
  const std::string tile = gemm_param(metric, "algo_tile");
  if (tile.empty()) return "";
  const std::string choice = gemm_param(metric, "algo_choice");
  return ", algo " + gemm_param(metric, "algo_id") + " tile " + tile +
         (choice == "cublaslt_heuristic_first" ? ", cuBLASLt's first choice"
          : choice == "fastest_timed"          ? ", fastest of " + gemm_param(metric, "candidates_timed") + " timed"
                                               : "");
}

// How a GEMM figure was measured, for a reader: "sustained, 8192x8192x8192", "burst from idle, 8192x8192x8192",
// "burst from idle, fastest of 27 shapes: 16384x8192x8192 (sustained there: 690.1 TFLOP/s)"; "" for other metrics.
inline std::string gemm_figure_note(const Metric& metric) {
  const std::vector<std::string> s = id_segments(metric.id);
  if (s.size() == 5 && s[0] == "gemm" && s[1] == "tensor_core_speedup") {
    return "TF32 over FP32 (Tensor Cores on against off), sustained, " + s[2];
  }
  const std::optional<GemmFigure> figure = gemm_figure(metric);
  if (!figure) return "";
  if (figure->timing == GemmTiming::Sustained) return "sustained, " + figure->shape + gemm_kernel_note(metric);
  if (figure->timing == GemmTiming::Burst) return "burst from idle, " + figure->shape + gemm_kernel_note(metric);
  const std::string searched = gemm_param(metric, "shapes_searched");
  const std::string sustained = gemm_param(metric, "best_shape_sustained_tflops");
  return "burst from idle, fastest of " + (searched.empty() ? std::string("the") : searched) + " shapes: " +
         (figure->shape.empty() ? "shape not recorded" : figure->shape) +
         (sustained.empty() ? "" : " (sustained there: " + sustained + " TFLOP/s)") + gemm_kernel_note(metric);
}

}  // namespace gpubench
