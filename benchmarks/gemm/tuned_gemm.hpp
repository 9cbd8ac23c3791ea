#pragma once
// A GEMM ready to be timed: operands drawn, each algorithm cuBLASLt's heuristic proposes timed briefly on this
// device, the fastest kept. The heuristic's first choice is often not the fastest here (on an H200 most shapes
// ran best with its second to eighth, by a few per cent), and trying them is how a benchmark gets to what the
// hardware can do.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/common/event_timer.hpp"
#include "benchmarks/gemm/cublaslt_gemm.hpp"
#include "benchmarks/gemm/gemm_operands.hpp"
#include "benchmarks/gemm/gemm_problem.hpp"
#include "benchmarks/gemm/gemm_verify.hpp"

namespace gpubench {

inline constexpr int kHeuristicCandidates = 8;
// A timed batch runs GEMMs back to back for at least this long: the host's launch gaps and the events'
// resolution then don't count for small shapes, and the GPU sees sustained load. Idle gaps between short
// batches would let a power-capped GPU (an H200 at 700 W) clock higher than it can under real training load.
inline constexpr double kMinBatchSeconds = 10e-3;
inline constexpr int kMaxLaunchesPerBatch = 10000;

class TunedGemm {
 public:
  TunedGemm(cublasLtHandle_t handle, GemmPrecision precision, const GemmShape& shape, std::uint64_t seed,
            cudaStream_t stream)
      : operands_(precision, shape, seed, stream), gemm_(handle, operands_), seed_(seed) {
    const std::vector<LtAlgorithm> candidates = gemm_.heuristic_candidates(kHeuristicCandidates);
    // A first launch of each also loads its kernel (CUDA loads modules lazily), which must not be timed.
    std::vector<LtAlgorithm> runnable;
    std::string refusal;
    for (const LtAlgorithm& candidate : candidates) {
      const cublasStatus_t status = gemm_.try_launch(candidate, stream);
      if (status == CUBLAS_STATUS_SUCCESS) {
        runnable.push_back(candidate);
      } else if (refusal.empty()) {
        refusal = std::string(cublasLtGetStatusName(status)) + " (" + cublasLtGetStatusString(status) + ")";
      }
    }
    GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    const std::string what = std::string(precision_name(precision)) + " GEMM " + shape_name(shape);
    if (candidates.empty()) throw std::runtime_error("cuBLASLt's heuristic offers no algorithm for a " + what);
    if (runnable.empty()) {
      throw std::runtime_error("none of the " + std::to_string(candidates.size()) +
                               " algorithms cuBLASLt's heuristic offers for a " + what + " launches: " + refusal);
    }

    EventTimer timer;
    const double one_launch = time_launches(runnable.front(), 1, timer, stream);
    launches_per_batch_ = static_cast<int>(
        std::clamp(std::ceil(kMinBatchSeconds / std::max(one_launch, 1e-9)), 1.0, double{kMaxLaunchesPerBatch}));
    double best = std::numeric_limits<double>::infinity();
    for (const LtAlgorithm& candidate : runnable) {
      const double seconds = time_launches(candidate, launches_per_batch_, timer, stream);
      if (seconds < best) {
        best = seconds;
        chosen_ = candidate;
      }
    }
    candidates_timed_ = runnable.size();
    // One untimed batch of the chosen algorithm keeps the clocks up; then D is poisoned again, so only the
    // timed launches that follow can make it pass verification.
    time_launches(chosen_, launches_per_batch_, timer, stream);
    operands_.poison_output(stream);
  }

  // Runs launches_per_batch() GEMMs of the chosen algorithm between two events; returns their seconds.
  double time_batch(EventTimer& timer, cudaStream_t stream) const {
    return time_launches(chosen_, launches_per_batch_, timer, stream);
  }

  // Runs `warmups` untimed GEMMs of the chosen algorithm, then `launches` between two events; returns their seconds.
  double time_burst(int warmups, int launches, EventTimer& timer, cudaStream_t stream) const {
    for (int i = 0; i < warmups; ++i) gemm_.launch(chosen_, stream);
    return time_launches(chosen_, launches, timer, stream);
  }

  int launches_per_batch() const { return launches_per_batch_; }
  const GemmShape& shape() const { return operands_.shape(); }
  const LtAlgorithm& chosen() const { return chosen_; }

  // Checks the output of the last launch on a sample of 256 elements.
  GemmCheck verify(cudaStream_t stream) const {
    return check_gemm(operands_, choose_sample(operands_.shape(), seed_ ^ 0x5A5A5A5Aull), stream);
  }

  // How it was measured, as label params.
  std::map<std::string, std::string> params() const {
    const GemmPrecision precision = operands_.precision();
    std::map<std::string, std::string> params = describe_algorithm(chosen_);
    params["layout"] = "TN";
    params["inputs"] = precision == GemmPrecision::Tf32 ? "fp32_tf32_rounded"
                       : precision == GemmPrecision::Fp32 ? "fp32"
                                                          : precision_name(precision);
    params["output"] = output_bytes(precision) == 4 ? "fp32" : precision == GemmPrecision::Fp16 ? "fp16" : "bf16";
    params["compute"] = compute_type_name(precision);
    params["candidates_timed"] = std::to_string(candidates_timed_);
    params["launches_per_iteration"] = std::to_string(launches_per_batch_);
    params["workspace_bytes"] = std::to_string(kCublasLtWorkspaceBytes);
    return params;
  }

 private:
  double time_launches(const LtAlgorithm& algorithm, int launches, EventTimer& timer, cudaStream_t stream) const {
    timer.start(stream);
    for (int i = 0; i < launches; ++i) gemm_.launch(algorithm, stream);
    timer.stop(stream);
    return timer.seconds();
  }

  GemmOperands operands_;
  LtGemm gemm_;
  std::uint64_t seed_;
  LtAlgorithm chosen_;
  int launches_per_batch_ = 1;
  std::size_t candidates_timed_ = 0;
};

}  // namespace gpubench
