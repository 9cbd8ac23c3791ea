#pragma once
// A GEMM ready to be timed: operands drawn, each algorithm cuBLASLt's heuristic proposes timed briefly on this
// device, the fastest kept (a near tie to the heuristic's order). The heuristic's first choice is often not the fastest here (on an H200 most shapes
// ran best with its second to eighth, by a few per cent), and trying them is how a benchmark gets to what the
// hardware can do. The choice (a GemmTuning) can be handed to a later TunedGemm of the same device, precision
// and shape, so that every repetition of a benchmark times the same algorithm.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/common/event_timer.hpp"
#include "benchmarks/common/candidate_choice.hpp"
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
// Untimed load before timing, whether or not this object tuned: a power-capped GPU's clock moves in its first
// fraction of a second under load, and every construction (Google Benchmark makes several per repetition)
// should start timing from the same state.
inline constexpr double kWarmupSeconds = 0.1;
// Each candidate is timed this many times, in turns, and judged by the median of its batches
// (benchmarks/common/candidate_choice.hpp says why not by its best).
inline constexpr int kTuningRounds = 7;
// Load before the candidates are timed, so that a power-capped GPU's clock has settled: tuning starts after an idle
// moment (operands drawn, handle made, or a burst's second of idle), and while the clock falls the candidates timed
// first in each round would look faster than the ones after them.
inline constexpr double kTuningWarmupSeconds = 0.5;

// What tuning chose: the algorithm and how many launches a timed batch holds.
struct GemmTuning {
  LtAlgorithm algorithm;
  int launches_per_batch = 1;
  std::size_t candidates_timed = 0;
};

class TunedGemm {
 public:
  // Tunes (times the heuristic's candidates) unless `known` holds a tuning of the same device, precision and
  // shape, which is then used as it is.
  TunedGemm(cublasLtHandle_t handle, GemmPrecision precision, const GemmShape& shape, std::uint64_t seed,
            cudaStream_t stream, const std::optional<GemmTuning>& known = std::nullopt)
      : operands_(precision, shape, seed, stream), gemm_(handle, operands_), seed_(seed) {
    EventTimer timer;
    if (known) {
      tuning_ = *known;
      const cublasStatus_t status = gemm_.try_launch(tuning_.algorithm, stream);  // loads its kernel, untimed
      if (status != CUBLAS_STATUS_SUCCESS) {
        throw std::runtime_error("the algorithm tuned earlier for a " + description() + " no longer launches: " +
                                 cublasLtGetStatusName(status));
      }
    } else {
      tuning_ = tune(timer, stream);
    }
    // Then D is poisoned again, so only the timed launches that follow can make it pass verification.
    for (double warm = 0; warm < kWarmupSeconds;) {
      warm += time_launches(tuning_.algorithm, tuning_.launches_per_batch, timer, stream);
    }
    operands_.poison_output(stream);
  }

  // Runs launches_per_batch() GEMMs of the chosen algorithm between two events; returns their seconds.
  double time_batch(EventTimer& timer, cudaStream_t stream) const {
    return time_launches(tuning_.algorithm, tuning_.launches_per_batch, timer, stream);
  }

  // Runs `warmups` untimed GEMMs of the chosen algorithm, then `launches` between two events; returns their seconds.
  double time_burst(int warmups, int launches, EventTimer& timer, cudaStream_t stream) const {
    for (int i = 0; i < warmups; ++i) gemm_.launch(tuning_.algorithm, stream);
    return time_launches(tuning_.algorithm, launches, timer, stream);
  }

  int launches_per_batch() const { return tuning_.launches_per_batch; }
  const GemmTuning& tuning() const { return tuning_; }

  // Checks the output of the last launch on a sample of 256 elements.
  GemmCheck verify(cudaStream_t stream) const {
    return check_gemm(operands_, choose_sample(operands_.shape(), seed_ ^ 0x5A5A5A5Aull), stream);
  }

  // How it was measured, as label params.
  std::map<std::string, std::string> params() const {
    const GemmPrecision precision = operands_.precision();
    std::map<std::string, std::string> params = describe_algorithm(tuning_.algorithm);
    params["layout"] = "TN";
    params["inputs"] = precision == GemmPrecision::Tf32 ? "fp32_tf32_rounded"
                       : precision == GemmPrecision::Fp32 ? "fp32"
                                                          : precision_name(precision);
    params["output"] = output_bytes(precision) == 4 ? "fp32" : precision == GemmPrecision::Fp16 ? "fp16" : "bf16";
    params["compute"] = compute_type_name(precision);
    params["candidates_timed"] = std::to_string(tuning_.candidates_timed);
    params["launches_per_iteration"] = std::to_string(tuning_.launches_per_batch);
    params["workspace_bytes"] = std::to_string(kCublasLtWorkspaceBytes);
    return params;
  }

 private:
  std::string description() const {
    return std::string(precision_name(operands_.precision())) + " GEMM " + shape_name(operands_.shape());
  }

  // Times each candidate the heuristic offers, kTuningRounds batches each in turns, and keeps the one
  // choose_candidate picks.
  GemmTuning tune(EventTimer& timer, cudaStream_t stream) {
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
    if (candidates.empty()) throw std::runtime_error("cuBLASLt's heuristic offers no algorithm for a " + description());
    if (runnable.empty()) {
      throw std::runtime_error("none of the " + std::to_string(candidates.size()) +
                               " algorithms cuBLASLt's heuristic offers for a " + description() + " launches: " + refusal);
    }

    GemmTuning tuning;
    const double one_launch = time_launches(runnable.front(), 1, timer, stream);
    tuning.launches_per_batch = static_cast<int>(
        std::clamp(std::ceil(kMinBatchSeconds / std::max(one_launch, 1e-9)), 1.0, double{kMaxLaunchesPerBatch}));
    for (double warm = 0; warm < kTuningWarmupSeconds;) {
      warm += time_launches(runnable.front(), tuning.launches_per_batch, timer, stream);
    }
    std::vector<std::vector<double>> batches(runnable.size());
    for (int round = 0; round < kTuningRounds; ++round) {
      for (std::size_t turn = 0; turn < runnable.size(); ++turn) {
        const std::size_t i = candidate_in_turn(round, turn, runnable.size());
        batches[i].push_back(time_launches(runnable[i], tuning.launches_per_batch, timer, stream));
      }
    }
    tuning.algorithm = runnable[choose_candidate(batches)];
    tuning.candidates_timed = runnable.size();
    return tuning;
  }

  double time_launches(const LtAlgorithm& algorithm, int launches, EventTimer& timer, cudaStream_t stream) const {
    timer.start(stream);
    for (int i = 0; i < launches; ++i) gemm_.launch(algorithm, stream);
    timer.stop(stream);
    return timer.seconds();
  }

  GemmOperands operands_;
  LtGemm gemm_;
  std::uint64_t seed_;
  GemmTuning tuning_;
};

}  // namespace gpubench
