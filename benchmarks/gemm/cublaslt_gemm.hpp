#pragma once
// One GEMM through cuBLASLt: D = 1 · op(A) · B + 0 · D in the TN layout of gemm_operands.hpp, with the data and
// compute types of its precision; the heuristic's candidate algorithms; what each algorithm is.
#include <cublasLt.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/gemm/cublas_check.hpp"
#include "benchmarks/gemm/gemm_operands.hpp"
#include "benchmarks/gemm/gemm_problem.hpp"

namespace gpubench {

// What cuBLASLt may use for split-K partial sums and the like; NVIDIA's samples suggest 32 MiB or more on Hopper.
inline constexpr std::size_t kCublasLtWorkspaceBytes = std::size_t{64} << 20;

// Owning cuBLASLt objects; a destroy status is ignored (a destructor can do nothing about it).
struct LtHandleDeleter {
  void operator()(cublasLtHandle_t handle) const { cublasLtDestroy(handle); }
};
struct LtMatmulDescDeleter {
  void operator()(cublasLtMatmulDesc_t desc) const { cublasLtMatmulDescDestroy(desc); }
};
struct LtLayoutDeleter {
  void operator()(cublasLtMatrixLayout_t layout) const { cublasLtMatrixLayoutDestroy(layout); }
};
struct LtPreferenceDeleter {
  void operator()(cublasLtMatmulPreference_t preference) const { cublasLtMatmulPreferenceDestroy(preference); }
};
using LtHandle = std::unique_ptr<std::remove_pointer_t<cublasLtHandle_t>, LtHandleDeleter>;
using LtMatmulDesc = std::unique_ptr<std::remove_pointer_t<cublasLtMatmulDesc_t>, LtMatmulDescDeleter>;
using LtLayout = std::unique_ptr<std::remove_pointer_t<cublasLtMatrixLayout_t>, LtLayoutDeleter>;
using LtPreference = std::unique_ptr<std::remove_pointer_t<cublasLtMatmulPreference_t>, LtPreferenceDeleter>;

inline LtHandle create_lt_handle() {
  cublasLtHandle_t handle = nullptr;
  GPUBENCH_CUBLAS_CHECK(cublasLtCreate(&handle));
  return LtHandle(handle);
}

inline cudaDataType_t input_data_type(GemmPrecision precision) {
  switch (precision) {
    case GemmPrecision::Fp32:
    case GemmPrecision::Tf32: return CUDA_R_32F;
    case GemmPrecision::Fp16: return CUDA_R_16F;
    case GemmPrecision::Bf16: return CUDA_R_16BF;
    case GemmPrecision::Fp8E4m3: return CUDA_R_8F_E4M3;
  }
  return CUDA_R_32F;
}

inline cudaDataType_t output_data_type(GemmPrecision precision) {
  switch (precision) {
    case GemmPrecision::Fp32:
    case GemmPrecision::Tf32: return CUDA_R_32F;
    case GemmPrecision::Fp16: return CUDA_R_16F;
    case GemmPrecision::Bf16:
    case GemmPrecision::Fp8E4m3: return CUDA_R_16BF;
  }
  return CUDA_R_32F;
}

// PEDANTIC keeps fp32 off the Tensor Cores even where NVIDIA_TF32_OVERRIDE=1 would allow TF32; FAST_TF32 asks for them.
inline cublasComputeType_t compute_type(GemmPrecision precision) {
  switch (precision) {
    case GemmPrecision::Fp32: return CUBLAS_COMPUTE_32F_PEDANTIC;
    case GemmPrecision::Tf32: return CUBLAS_COMPUTE_32F_FAST_TF32;
    case GemmPrecision::Fp16:
    case GemmPrecision::Bf16:
    case GemmPrecision::Fp8E4m3: return CUBLAS_COMPUTE_32F;
  }
  return CUBLAS_COMPUTE_32F;
}

inline const char* compute_type_name(GemmPrecision precision) {
  switch (compute_type(precision)) {
    case CUBLAS_COMPUTE_32F_PEDANTIC: return "32F_PEDANTIC";
    case CUBLAS_COMPUTE_32F_FAST_TF32: return "32F_FAST_TF32";
    default: return "32F";
  }
}

// A candidate algorithm as the heuristic returned it.
struct LtAlgorithm {
  cublasLtMatmulAlgo_t algo{};
  int heuristic_rank = 0;           // position in the heuristic's answer; 0 is its first choice
  std::size_t workspace_bytes = 0;  // how much of the workspace it uses
};

class LtGemm {
 public:
  // `operands` must outlive this object.
  LtGemm(cublasLtHandle_t handle, const GemmOperands& operands)
      : handle_(handle), operands_(operands), workspace_(kCublasLtWorkspaceBytes) {
    const GemmPrecision precision = operands.precision();
    const GemmShape& shape = operands.shape();
    cublasLtMatmulDesc_t desc = nullptr;
    GPUBENCH_CUBLAS_CHECK(cublasLtMatmulDescCreate(&desc, compute_type(precision), CUDA_R_32F));
    desc_.reset(desc);
    const cublasOperation_t transpose = CUBLAS_OP_T;
    const cublasOperation_t no_transpose = CUBLAS_OP_N;
    GPUBENCH_CUBLAS_CHECK(
        cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof(transpose)));
    GPUBENCH_CUBLAS_CHECK(
        cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &no_transpose, sizeof(no_transpose)));
    // FP8 training hands cuBLASLt a per-tensor scale for A and B (CUBLASLT_MATMUL_DESC_A/B_SCALE_POINTER) to
    // dequantise with; with a BF16 output cuBLASLt 13 refuses every algorithm at launch when they are set
    // (CUBLAS_STATUS_NOT_SUPPORTED, seen on an H200). The inputs here are drawn inside E4M3's range, so none is
    // set and cuBLASLt's default scale of 1 applies: the arithmetic is the same.
    a_layout_ = create_layout(input_data_type(precision), shape.k, shape.m, shape.k);
    b_layout_ = create_layout(input_data_type(precision), shape.k, shape.n, shape.k);
    d_layout_ = create_layout(output_data_type(precision), shape.m, shape.n, shape.m);
  }
  LtGemm(const LtGemm&) = delete;
  LtGemm& operator=(const LtGemm&) = delete;

  // Up to `max_count` algorithms the heuristic expects to run this GEMM fastest, best first.
  std::vector<LtAlgorithm> heuristic_candidates(int max_count) const {
    cublasLtMatmulPreference_t raw = nullptr;
    GPUBENCH_CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&raw));
    const LtPreference preference(raw);
    const std::uint64_t workspace_bytes = workspace_.bytes();
    GPUBENCH_CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(raw, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                               &workspace_bytes, sizeof(workspace_bytes)));
    std::vector<cublasLtMatmulHeuristicResult_t> results(static_cast<std::size_t>(max_count));
    int returned = 0;
    GPUBENCH_CUBLAS_CHECK(cublasLtMatmulAlgoGetHeuristic(handle_, desc_.get(), a_layout_.get(), b_layout_.get(),
                                                         d_layout_.get(), d_layout_.get(), raw, max_count,
                                                         results.data(), &returned));
    std::vector<LtAlgorithm> candidates;
    for (int rank = 0; rank < returned && rank < max_count; ++rank) {
      const cublasLtMatmulHeuristicResult_t& result = results[static_cast<std::size_t>(rank)];
      if (result.state != CUBLAS_STATUS_SUCCESS) continue;
      candidates.push_back({result.algo, rank, result.workspaceSize});
    }
    return candidates;
  }

  // Enqueues one GEMM with `algorithm`; returns cuBLASLt's status (launch() throws on failure instead).
  cublasStatus_t try_launch(const LtAlgorithm& algorithm, cudaStream_t stream) const {
    const float alpha = 1.0f;
    const float beta = 0.0f;
    return cublasLtMatmul(handle_, desc_.get(), &alpha, operands_.a(), a_layout_.get(), operands_.b(),
                          b_layout_.get(), &beta, operands_.d(), d_layout_.get(), operands_.d(), d_layout_.get(),
                          &algorithm.algo, workspace_.get(), workspace_.bytes(), stream);
  }

  void launch(const LtAlgorithm& algorithm, cudaStream_t stream) const {
    GPUBENCH_CUBLAS_CHECK(try_launch(algorithm, stream));
  }


 private:
  static LtLayout create_layout(cudaDataType_t type, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
    cublasLtMatrixLayout_t layout = nullptr;
    GPUBENCH_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&layout, type, static_cast<std::uint64_t>(rows),
                                                     static_cast<std::uint64_t>(cols), ld));
    return LtLayout(layout);
  }

  cublasLtHandle_t handle_;
  const GemmOperands& operands_;
  DeviceBuffer<std::byte> workspace_;
  LtMatmulDesc desc_;
  LtLayout a_layout_;
  LtLayout b_layout_;
  LtLayout d_layout_;
};

template <class T>
T algo_config(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoConfigAttributes_t attribute) {
  T value{};
  std::size_t written = 0;
  GPUBENCH_CUBLAS_CHECK(cublasLtMatmulAlgoConfigGetAttribute(&algo, attribute, &value, sizeof(value), &written));
  return value;
}

// Which algorithm it is, as label params. tile, stages, cluster and inner_shape are cuBLASLt's enum values
// (cublasLtMatmulTile_t, cublasLtMatmulStages_t, cublasLtClusterShape_t, cublasLtMatmulInnerShape_t).
inline std::map<std::string, std::string> describe_algorithm(const LtAlgorithm& algorithm) {
  const cublasLtMatmulAlgo_t& algo = algorithm.algo;
  return {
      {"algo_heuristic_rank", std::to_string(algorithm.heuristic_rank)},
      {"algo_id", std::to_string(algo_config<std::int32_t>(algo, CUBLASLT_ALGO_CONFIG_ID))},
      {"algo_tile", std::to_string(algo_config<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_TILE_ID))},
      {"algo_stages", std::to_string(algo_config<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_STAGES_ID))},
      {"algo_splitk", std::to_string(algo_config<std::int32_t>(algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM))},
      {"algo_reduction", std::to_string(algo_config<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME))},
      {"algo_swizzle", std::to_string(algo_config<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING))},
      {"algo_custom", std::to_string(algo_config<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION))},
      {"algo_cluster", std::to_string(algo_config<std::uint16_t>(algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID))},
      {"algo_inner_shape", std::to_string(algo_config<std::uint16_t>(algo, CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID))},
      {"algo_workspace_bytes", std::to_string(algorithm.workspace_bytes)},
  };
}

}  // namespace gpubench
