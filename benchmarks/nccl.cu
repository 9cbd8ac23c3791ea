// NCCL all-reduce across every selected GPU, driven from this one process (ncclCommInitAll), as nccl-tests'
// all_reduce_perf -g N does: 8 B to 4 GiB, float sum, out of place and in place, one figure per size (busbw).
// One Google Benchmark iteration is one timed sample: every GPU starts together behind a gate and runs one
// call, or for small sizes a few back to back (calls_per_sample); the figure uses the slowest GPU's time.
// The algorithm and protocol are NCCL_ALGO / NCCL_PROTO as found at registration (the harness runs one process
// per combination); each benchmark records the combination NCCL reports it used. gpubench-mpi runs the same
// sweep with one process per GPU (harness/mpi/, measuring with benchmarks/nccl_mpi/).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "benchmarks/common/copy_gate.hpp"
#include "benchmarks/common/benchmark_failure.hpp"
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/family_registration.hpp"
#include "benchmarks/common/gated_rounds.hpp"
#include "benchmarks/common/registry.hpp"
#include "benchmarks/common/reporting.hpp"
#include "benchmarks/nccl/allreduce_sweep.hpp"
#include "benchmarks/nccl/nccl_check.hpp"
#include "benchmarks/nccl/nccl_communicators.hpp"
#include "benchmarks/nccl/nccl_debug_log.hpp"
#include "benchmarks/nccl/nccl_tuning_line.hpp"

namespace gpubench {
namespace {

// The communicators every benchmark of this process shares: made on first use and kept, since ncclCommInitAll
// takes far longer than a small all-reduce and Google Benchmark calls each benchmark's body several times.
// After a failure they are aborted and made anew; what NCCL refused is remembered, so the refusal is reported
// without asking again.
class NcclSession {
 public:
  NcclSession() = default;
  NcclSession(const NcclSession&) = delete;
  NcclSession& operator=(const NcclSession&) = delete;

  // Throws NcclError (refused() when NCCL rejects its settings: every later call throws the same) or CudaError.
  NcclCommunicators& communicators(const std::vector<int>& devices) {
    if (init_refusal_) throw *init_refusal_;
    if (communicators_ && !communicators_->aborted()) return *communicators_;
    communicators_.reset();
    if (!debug_log_) debug_log_ = NcclDebugLog::configure_environment();  // before NCCL's first call
    try {
      communicators_ = NcclCommunicators::for_devices(devices);
    } catch (const NcclError& error) {
      if (error.refused()) init_refusal_ = error;
      throw;
    }
    return *communicators_;
  }

  // Ends the communicators after an error (their state is unknown); the next benchmark makes new ones.
  void abandon() noexcept {
    if (communicators_) communicators_->abort();
  }

  const std::string* refusal(std::size_t bytes) const {
    const auto it = refused_sizes_.find(bytes);
    return it == refused_sizes_.end() ? nullptr : &it->second;
  }

  void record_refusal(std::size_t bytes, const std::string& reason) {
    refused_sizes_[bytes] = reason;
    abandon();  // NCCL refused part-way through a group call: start clean
  }

  NcclDebugLog& debug_log() { return *debug_log_; }

 private:
  std::optional<NcclDebugLog> debug_log_;  // declared first: NCCL may still write to its file until comms go
  std::unique_ptr<NcclCommunicators> communicators_;
  std::optional<NcclError> init_refusal_;
  std::map<std::size_t, std::string> refused_sizes_;
};

std::vector<int> device_indices(const std::vector<BenchmarkDevice>& devices) {
  std::vector<int> indices;
  for (const BenchmarkDevice& device : devices) indices.push_back(device.index);
  return indices;
}

void run_allreduce(benchmark::State& state, const BenchmarkContext& context, NcclSession& session,
                   const NcclCombination& forced, const std::vector<BenchmarkDevice>& devices, std::size_t bytes,
                   Placement placement) {
  if (devices.size() < 2) {
    skip_benchmark(state, "needs two GPUs; " + std::to_string(devices.size()) + " selected");
    return;
  }
  if (const std::string* reason = session.refusal(bytes)) {
    skip_benchmark(state, *reason);
    return;
  }
  NcclCommunicators* communicators = nullptr;
  try {
    communicators = &session.communicators(device_indices(devices));
  } catch (const NcclError& error) {
    if (!error.refused()) throw;
    skip_benchmark(state, error.what());
    return;
  }

  AllReduceBench bench(*communicators, bytes, placement);
  CopyGate gate;  // declared after the buffers, so it is opened before they are freed
  try {
    try {
      bench.warm_up();
    } catch (const NcclError& error) {
      if (!error.refused()) throw;
      session.record_refusal(bytes, error.what());
      skip_benchmark(state, error.what());
      return;
    }
    const std::optional<NcclCombination> used = allreduce_choice_from_debug_text(session.debug_log().take_new_text(), bytes);

    const int calls = calls_per_sample(bytes, communicators->world_size(), placement);
    const GatedRounds samples(  // a round: one sample of `calls` calls, a lane per GPU
        gate,
        [&] {
          if (placement == Placement::InPlace) bench.refresh_inputs();
          bench.enqueue_timed(gate, calls);
        },
        [&] { return bench.elapsed_seconds(); });
    const double timed_seconds = samples.time(state).round_seconds;
    session.debug_log().skip_new_text();
    if (gate.timed_out()) {
      throw BenchmarkFailure(FailureKind::GateTimeout, "a timing gate gave up waiting, so the calls started before the clock: NCCL waited for "
                               "the GPU while enqueuing the all-reduce");
    }
    report_clocks_of_all(state, context, devices);

    const std::string wrong = describe_mismatches(bench.check(), bench.count());
    if (!wrong.empty()) {
      fail_benchmark(state, FailureKind::WrongResult, wrong);
      return;
    }
    AllReduceMeasurement measurement;
    measurement.bytes = bytes;
    measurement.placement = placement;
    measurement.ranks = communicators->world_size();
    measurement.mean_seconds = timed_seconds / (static_cast<double>(state.iterations()) * calls);
    measurement.calls_per_sample = calls;
    measurement.forced = forced;
    measurement.used = used;
    measurement.mode = "single_process";
    FigureLabel label{"busbw", "GB/s", Better::Higher, std::nullopt, allreduce_params(measurement)};
    report_figure(state, allreduce_busbw_gbps(measurement), std::nullopt, label);
  } catch (...) {
    gate.open();
    session.abandon();  // kernels still waiting on a peer return, so the buffers can be freed
    throw;
  }
}

void register_nccl_benchmarks(const BenchmarkContext& context) {
  const NcclCombination forced = forced_combination_from_environment();
  const auto session = std::make_shared<NcclSession>();
  for (std::size_t bytes : allreduce_sizes(context.suite)) {
    for (Placement placement : allreduce_placements(context.suite, forced)) {
      register_all_devices(
          context, allreduce_benchmark_name(forced, bytes, placement),
          [&context, session, forced, bytes, placement](benchmark::State& state, const std::vector<BenchmarkDevice>& devices) {
            run_allreduce(state, context, *session, forced, devices, bytes, placement);
          },
          "");
    }
  }
}

}  // namespace

GPUBENCH_FAMILY("nccl", register_nccl_benchmarks);

}  // namespace gpubench
