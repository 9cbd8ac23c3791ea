#pragma once
// A model's own GEMM shapes, given by the user (`gpubench run --gemm-shapes`, passed on to gpubench-micro as
// GPUBENCH_GEMM_SHAPES): "M,N,K" or "MxNxK" items, separated by ':' or new lines; '#' starts a comment. Each shape
// is measured in every precision as gemm/<precision>/<M>x<N>x<K>, so its metric id is stable and can be baselined.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "benchmarks/gemm/gemm_problem.hpp"

namespace gpubench {

inline constexpr std::int64_t kMaxGemmDimension = 131072;
inline constexpr std::size_t kMaxGemmShapes = 64;

// Throws std::invalid_argument naming the item that is not a shape, a dimension that is 0 or past
// kMaxGemmDimension, or more than kMaxGemmShapes shapes. A shape given twice is kept once.
std::vector<GemmShape> parse_gemm_shape_list(const std::string& text);

// "M,N,K:M,N,K", as parse_gemm_shape_list reads it.
std::string format_gemm_shape_list(const std::vector<GemmShape>& shapes);

// The shapes of GEMM benchmarks among `benchmarks` (gemm/<precision>/<M>x<N>x<K>/gpuN), e.g. so that a
// re-measurement registers a user's shape again.
std::vector<GemmShape> gemm_shapes_named_in(const std::vector<std::string>& benchmarks);

}  // namespace gpubench
