#pragma once
// A GEMM ready to be timed: operands drawn, an algorithm chosen, its kernel loaded and the GPU under load. Two ways to
// choose, by what the figure is for:
//   LibraryFirst: the first of cuBLASLt's heuristic candidates that launches. It is what a framework runs (PyTorch's
//     8192^3 products on an H200 ran the same configurations at the same rates), it depends only on the GPU model,
//     driver and cuBLAS, so every process measures the same kernel, and a new cuBLAS that changes it shows as a
//     change of algorithm in the record. The figures that gate (sustained and burst) use it. Timing the candidates
//     instead chose a different one in different processes: on an H200 the sustained BF16 8192^3 candidates lie
//     within 5 % of each other, and the one that won a few 10 ms turns (which share a clock set by the mix's power)
//     split the figure by up to 4 % between processes.
//   FastestTimed: each candidate timed briefly, the fastest kept (a near tie to the heuristic's order). The search for
//     what the hardware can reach, gemm/max_achievable, uses it.
// The choice (a GemmAlgorithmChoice) can be handed to a later TimedGemm of the same device, precision and shape, so
// that every repetition of a benchmark times the same algorithm without choosing again.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/common/candidate_choice.hpp"
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
// Untimed load before timing, whether or not this object chose: a power-capped GPU's clock moves in its first
// fraction of a second under load, and every construction (Google Benchmark makes several per repetition)
// should start timing from the same state.
inline constexpr double kWarmupSeconds = 0.1;
// FastestTimed: each candidate is timed this many times, in turns, and judged by the median of its batches
// (benchmarks/common/candidate_choice.hpp says why not by its best).
inline constexpr int kTuningRounds = 7;
// FastestTimed: load before the candidates are timed, so that a power-capped GPU's clock has settled: while the
// clock falls the candidates timed first in each round would look faster than the ones after them.
inline constexpr double kTuningWarmupSeconds = 0.5;

enum class AlgorithmChoice { LibraryFirst, FastestTimed };

inline const char* algorithm_choice_name(AlgorithmChoice choice) {
  return choice == AlgorithmChoice::LibraryFirst ? "cublaslt_heuristic_first" : "fastest_timed";
}

// What was chosen: the algorithm, how, and how many launches a timed batch holds.
struct GemmAlgorithmChoice {
  LtAlgorithm algorithm;
  AlgorithmChoice how = AlgorithmChoice::LibraryFirst;
  int launches_per_batch = 1;
  std::size_t candidates_timed = 0;  // FastestTimed only
};

class TimedGemm {
 public:
  // Chooses the algorithm `how` says, unless `known` holds a choice for the same device, precision and shape, which
  // is then used as it is.
  TimedGemm(cublasLtHandle_t handle, GemmPrecision precision, const GemmShape& shape, std::uint64_t seed,
            cudaStream_t stream, AlgorithmChoice how, const std::optional<GemmAlgorithmChoice>& known = std::nullopt)
      : operands_(precision, shape, seed, stream), gemm_(handle, operands_), seed_(seed) {
    EventTimer timer;
    if (known) {
      choice_ = *known;
      const cublasStatus_t status = gemm_.try_launch(choice_.algorithm, stream);  // loads its kernel, untimed
      if (status != CUBLAS_STATUS_SUCCESS) {
        throw std::runtime_error("the algorithm chosen earlier for a " + description() + " no longer launches: " +
                                 cublasLtGetStatusName(status));
      }
    } else {
      choice_ = choose(how, timer, stream);
    }
    // Then D is poisoned again, so only the timed launches that follow can make it pass verification.
    for (double warm = 0; warm < kWarmupSeconds;) {
      warm += time_launches(choice_.algorithm, choice_.launches_per_batch, timer, stream);
    }
    operands_.poison_output(stream);
  }

  // Runs launches_per_batch() GEMMs of the chosen algorithm between two events; returns their seconds.
  double time_batch(EventTimer& timer, cudaStream_t stream) const {
    return time_launches(choice_.algorithm, choice_.launches_per_batch, timer, stream);
  }

  // Runs batches back to back until they have taken `seconds` together; returns their seconds and launches.
  struct Window {
    double seconds = 0;
    std::int64_t launches = 0;
  };
  Window time_window(double seconds, EventTimer& timer, cudaStream_t stream) const {
    Window window;
    while (window.seconds < seconds) {
      window.seconds += time_batch(timer, stream);
      window.launches += choice_.launches_per_batch;
    }
    return window;
  }

  // Runs `warmups` untimed GEMMs of the chosen algorithm, then `launches` between two events; returns their seconds.
  double time_burst(int warmups, int launches, EventTimer& timer, cudaStream_t stream) const {
    for (int i = 0; i < warmups; ++i) gemm_.launch(choice_.algorithm, stream);
    return time_launches(choice_.algorithm, launches, timer, stream);
  }

  int launches_per_batch() const { return choice_.launches_per_batch; }
  const GemmAlgorithmChoice& choice() const { return choice_; }

  // Checks the output of the last launch on a sample of 256 elements.
  GemmCheck verify(cudaStream_t stream) const {
    return check_gemm(operands_, choose_sample(operands_.shape(), seed_ ^ 0x5A5A5A5Aull), stream);
  }

  // How it was measured, as label params.
  std::map<std::string, std::string> params() const {
    const GemmPrecision precision = operands_.precision();
    std::map<std::string, std::string> params = describe_algorithm(choice_.algorithm);
    params["algo_choice"] = algorithm_choice_name(choice_.how);
    params["layout"] = "TN";
    params["inputs"] = precision == GemmPrecision::Tf32 ? "fp32_tf32_rounded"
                       : precision == GemmPrecision::Fp32 ? "fp32"
                                                          : precision_name(precision);
    params["output"] = output_bytes(precision) == 4 ? "fp32" : precision == GemmPrecision::Fp16 ? "fp16" : "bf16";
    params["compute"] = compute_type_name(precision);
    if (choice_.how == AlgorithmChoice::FastestTimed) {
      params["candidates_timed"] = std::to_string(choice_.candidates_timed);
    }
    params["launches_per_batch"] = std::to_string(choice_.launches_per_batch);
    params["workspace_bytes"] = std::to_string(kCublasLtWorkspaceBytes);
    return params;
  }

 private:
  std::string description() const {
    return std::string(precision_name(operands_.precision())) + " GEMM " + shape_name(operands_.shape());
  }

  GemmAlgorithmChoice choose(AlgorithmChoice how, EventTimer& timer, cudaStream_t stream) {
    const std::vector<LtAlgorithm> runnable = runnable_candidates(how == AlgorithmChoice::LibraryFirst ? 1 : 0, stream);
    GemmAlgorithmChoice choice;
    choice.how = how;
    const double one_launch = time_launches(runnable.front(), 1, timer, stream);
    choice.launches_per_batch = static_cast<int>(
        std::clamp(std::ceil(kMinBatchSeconds / std::max(one_launch, 1e-9)), 1.0, double{kMaxLaunchesPerBatch}));
    if (how == AlgorithmChoice::LibraryFirst) {
      choice.algorithm = runnable.front();
      return choice;
    }
    for (double warm = 0; warm < kTuningWarmupSeconds;) {
      warm += time_launches(runnable.front(), choice.launches_per_batch, timer, stream);
    }
    std::vector<std::vector<double>> batches(runnable.size());
    for (int round = 0; round < kTuningRounds; ++round) {
      for (std::size_t turn = 0; turn < runnable.size(); ++turn) {
        const std::size_t i = candidate_in_turn(round, turn, runnable.size());
        batches[i].push_back(time_launches(runnable[i], choice.launches_per_batch, timer, stream));
      }
    }
    choice.algorithm = runnable[choose_candidate(batches)];
    choice.candidates_timed = runnable.size();
    return choice;
  }

  // The heuristic's candidates that launch, in its order; `enough` of them (0: all). A first launch of each also
  // loads its kernel (CUDA loads modules lazily), which must not be timed. Throws when none launches.
  std::vector<LtAlgorithm> runnable_candidates(std::size_t enough, cudaStream_t stream) const {
    const std::vector<LtAlgorithm> candidates = gemm_.heuristic_candidates(kHeuristicCandidates);
    if (candidates.empty()) throw std::runtime_error("cuBLASLt's heuristic offers no algorithm for a " + description());
    std::vector<LtAlgorithm> runnable;
    std::string refusal;
    for (const LtAlgorithm& candidate : candidates) {
      const cublasStatus_t status = gemm_.try_launch(candidate, stream);
      if (status == CUBLAS_STATUS_SUCCESS) {
        runnable.push_back(candidate);
        if (runnable.size() == enough) break;
      } else if (refusal.empty()) {
        refusal = std::string(cublasLtGetStatusName(status)) + " (" + cublasLtGetStatusString(status) + ")";
      }
    }
    GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (runnable.empty()) {
      throw std::runtime_error("none of the " + std::to_string(candidates.size()) +
                               " algorithms cuBLASLt's heuristic offers for a " + description() + " launches: " + refusal);
    }
    return runnable;
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
  GemmAlgorithmChoice choice_;
};

}  // namespace gpubench
