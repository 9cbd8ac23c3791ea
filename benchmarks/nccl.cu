// NCCL collectives across every selected GPU, driven from this one process (ncclCommInitAll), as nccl-tests' *_perf
// -g N do: all-reduce, all-gather, reduce-scatter, broadcast, reduce, all-to-all and send/recv
// (nccl/collective_table.hpp), 8 B to 4 GiB of floats (summed where they reduce), out of place and in place, one
// figure per size (busbw). One Google Benchmark iteration is one timed sample: every GPU starts together behind a
// gate and runs one call, or for small sizes a few back to back (calls_per_sample); the figure uses the slowest
// GPU's time. Every rank's output is checked against what the collective must make of the ranks' random inputs.
// The algorithm and protocol are NCCL_ALGO / NCCL_PROTO as found at registration (the harness runs one process per
// combination, nccl/collective_sweep.hpp says which collectives each runs); each benchmark records the combination
// NCCL reports it used, and a combination NCCL refuses for a collective is a skip with NCCL's reason.
// Where NCCL chooses, the full suite also times small calls with the host's clock, plain and replayed from CUDA
// Graphs they were captured into (time per call). gpubench-mpi runs the same busbw sweep with one process per GPU
// (harness/mpi/, measuring with benchmarks/nccl_mpi/).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "benchmarks/common/benchmark_failure.hpp"
#include "benchmarks/common/copy_gate.hpp"
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/family_registration.hpp"
#include "benchmarks/common/gated_rounds.hpp"
#include "benchmarks/common/host_timer.hpp"
#include "benchmarks/common/iteration_times.hpp"
#include "benchmarks/common/registry.hpp"
#include "benchmarks/common/reporting.hpp"
#include "benchmarks/common/timed_loop.hpp"
#include "benchmarks/common/transfer_sizes.hpp"
#include "benchmarks/nccl/captured_calls.hpp"
#include "benchmarks/nccl/collective_bench.hpp"
#include "benchmarks/nccl/collective_report.hpp"
#include "benchmarks/nccl/collective_sweep.hpp"
#include "benchmarks/nccl/collective_table.hpp"
#include "benchmarks/nccl/nccl_check.hpp"
#include "benchmarks/nccl/nccl_session.hpp"
#include "benchmarks/nccl/nccl_tuning_line.hpp"

namespace gpubench {
namespace {

std::vector<int> device_indices(const std::vector<BenchmarkDevice>& devices) {
  std::vector<int> indices;
  for (const BenchmarkDevice& device : devices) indices.push_back(device.index);
  return indices;
}

// The session's communicators, or null after skipping the benchmark with the reason it cannot run here.
NcclCommunicators* usable_communicators(benchmark::State& state, NcclSession& session, Collective collective,
                                        const std::vector<BenchmarkDevice>& devices) {
  if (devices.size() < 2) {
    skip_benchmark(state, "needs two GPUs; " + std::to_string(devices.size()) + " selected");
    return nullptr;
  }
  if (const std::string* reason = session.refusal(collective)) {
    skip_benchmark(state, *reason);
    return nullptr;
  }
  try {
    return &session.communicators(device_indices(devices));
  } catch (const NcclError& error) {
    if (!error.refused()) throw;
    skip_benchmark(state, error.what());
    return nullptr;
  }
}

// The shape of one call, or nullopt after skipping the benchmark: a size too small to give every block a float.
std::optional<CallShape> usable_shape(benchmark::State& state, const CollectiveSpec& spec, std::size_t bytes, int ranks) {
  const CallShape shape = call_shape(spec, bytes, ranks);
  if (shape.block > 0) return shape;
  skip_benchmark(state, too_small_reason(spec, bytes, ranks));
  return std::nullopt;
}

// Warms `bench` up; false after skipping the benchmark because NCCL refused (remembered for the collective).
bool warmed_up(benchmark::State& state, NcclSession& session, CollectiveBench& bench, const CollectiveSpec& spec,
               std::size_t bytes) {
  try {
    bench.warm_up();
    return true;
  } catch (const NcclError& error) {
    if (!error.refused()) throw;
    session.record_refusal(spec.kind, bytes, error.what());
    skip_benchmark(state, *session.refusal(spec.kind));
    return false;
  }
}

// What NCCL said it chose for the calls since the last look at its log.
std::optional<NcclCombination> reported_choice(NcclSession& session, const CollectiveSpec& spec, const CallShape& shape) {
  const std::string text = session.debug_log().take_new_text();
  if (spec.tuning_name == nullptr) return std::nullopt;
  return choice_from_debug_text(text, spec.tuning_name, {shape.bytes(), shape.block * sizeof(float)});
}

// The calls just timed, for their figure, once every GPU's output is checked: nullopt, with the benchmark failed,
// when one is wrong. The caller sets the mean time of a call.
std::optional<CollectiveMeasurement> checked_measurement(benchmark::State& state, CollectiveBench& bench,
                                                         const CollectiveSpec& spec, Placement placement,
                                                         const NcclCommunicators& communicators,
                                                         const NcclCombination& forced,
                                                         const std::optional<NcclCombination>& used, int calls) {
  const std::string wrong = describe_mismatches(spec.kind, bench.check(), bench.shape().recv_count);
  if (!wrong.empty()) {
    fail_benchmark(state, FailureKind::WrongResult, wrong);
    return std::nullopt;
  }
  CollectiveMeasurement measurement =
      measurement_of(spec, bench.shape(), placement, communicators.world_size(), forced, used, "single_process");
  measurement.calls_per_sample = calls;
  return measurement;
}

void run_busbw(benchmark::State& state, const BenchmarkContext& context, NcclSession& session,
               const NcclCombination& forced, const std::vector<BenchmarkDevice>& devices, const SweepPoint& point) {
  const CollectiveSpec& spec = collective_spec(point.collective);
  NcclCommunicators* communicators = usable_communicators(state, session, spec.kind, devices);
  if (communicators == nullptr) return;
  const std::optional<CallShape> shape = usable_shape(state, spec, point.bytes, communicators->world_size());
  if (!shape) return;

  CollectiveBench bench(*communicators, spec, *shape, point.placement);
  CopyGate gate;  // declared after the buffers, so it is opened before they are freed
  try {
    if (!warmed_up(state, session, bench, spec, point.bytes)) return;
    const std::optional<NcclCombination> used = reported_choice(session, spec, *shape);

    const int calls = calls_per_sample(point.bytes, communicators->world_size(), point.placement);
    const GatedRounds samples(  // a round: one sample of `calls` calls, a lane per GPU
        gate,
        [&] {
          if (point.placement == Placement::InPlace) bench.refresh_inputs();
          bench.enqueue_timed(gate, calls);
        },
        [&] { return bench.elapsed_seconds(); });
    const double timed_seconds = samples.time(state).round_seconds;
    session.debug_log().skip_new_text();
    if (gate.timed_out()) {
      throw BenchmarkFailure(FailureKind::GateTimeout, "a timing gate gave up waiting, so the calls started before the "
                                                       "clock: NCCL waited for the GPU while enqueuing the collective");
    }
    report_clocks_of_all(state, context, devices);

    std::optional<CollectiveMeasurement> measurement =
        checked_measurement(state, bench, spec, point.placement, *communicators, forced, used, calls);
    if (!measurement) return;
    measurement->mean_seconds = timed_seconds / (static_cast<double>(state.iterations()) * calls);
    FigureLabel label{"busbw", "GB/s", Better::Higher, std::nullopt, collective_params(*measurement)};
    report_figure(state, busbw_gbps(*measurement), std::nullopt, label);
  } catch (...) {
    gate.open();
    session.abandon();  // kernels still waiting on a peer return, so the buffers can be freed
    throw;
  }
}

// Host time per call of `calls` calls launched back to back and waited for, plain or as graph replays, the median
// iteration (host-side costs are heavy-tailed: benchmarks/common/iteration_times.hpp). No gate: enqueuing is what
// a graph saves, so it is timed.
void run_time_per_call(benchmark::State& state, const BenchmarkContext& context, NcclSession& session,
                       const NcclCombination& forced, const std::vector<BenchmarkDevice>& devices,
                       const LaunchPoint& point) {
  if (point.launch == Launch::Graph) {
    const std::string reason = capture_unsupported_reason();
    if (!reason.empty()) {
      skip_benchmark(state, reason);
      return;
    }
  }
  const CollectiveSpec& spec = collective_spec(point.collective);
  NcclCommunicators* communicators = usable_communicators(state, session, spec.kind, devices);
  if (communicators == nullptr) return;
  const std::optional<CallShape> shape = usable_shape(state, spec, point.bytes, communicators->world_size());
  if (!shape) return;

  CollectiveBench bench(*communicators, spec, *shape, Placement::OutOfPlace);
  std::optional<CapturedCalls> captured;  // after the buffers, so its graphs go first
  try {
    if (!warmed_up(state, session, bench, spec, point.bytes)) return;
    const std::optional<NcclCombination> used = reported_choice(session, spec, *shape);

    const int calls = calls_per_sample(point.bytes, communicators->world_size(), Placement::OutOfPlace);
    if (point.launch == Launch::Graph) captured.emplace(bench, *communicators, calls);
    const auto launch_and_wait = [&] {
      if (captured) {
        captured->launch();
      } else {
        bench.enqueue_calls(calls);
      }
      bench.synchronize();
    };
    host_seconds(launch_and_wait);  // warm-up: a graph's first launch also uploads it to the GPUs
    const IterationTimes times = seconds_of_each_iteration(state, [&] { return host_seconds(launch_and_wait); });
    session.debug_log().skip_new_text();
    report_clocks_of_all(state, context, devices);

    std::optional<CollectiveMeasurement> measurement =
        checked_measurement(state, bench, spec, Placement::OutOfPlace, *communicators, forced, used, calls);
    if (!measurement) return;
    measurement->mean_seconds = times.median_seconds() / calls;
    FigureLabel label{"time_per_call", "us", Better::Lower, std::nullopt, collective_params(*measurement)};
    label.params["statistic"] = times.statistic();
    label.params["launch"] = point.launch == Launch::Graph
                                 ? "one CUDA Graph per GPU holding the calls (stream capture), cudaGraphLaunch on each"
                                 : "the calls enqueued one after another, each grouped over the GPUs";
    label.params["timer"] = "host steady_clock from the first launch until every GPU's stream is idle, over the calls";
    report_figure(state, measurement->mean_seconds * 1e6, std::nullopt, label);
  } catch (...) {
    captured.reset();   // NCCL's resources for captured calls go with their graphs, before the communicators
    session.abandon();  // kernels still waiting on a peer return, so the buffers can be freed
    throw;
  }
}

void register_nccl_benchmarks(const BenchmarkContext& context) {
  const NcclCombination forced = forced_combination_from_environment();
  const auto session = std::make_shared<NcclSession>();
  for (const SweepPoint& point : sweep_points(context.suite, forced)) {
    register_all_devices(
        context, benchmark_name(point, forced),
        [&context, session, forced, point](benchmark::State& state, const std::vector<BenchmarkDevice>& devices) {
          run_busbw(state, context, *session, forced, devices, point);
        },
        "")
        ->MinTime(collective_min_time_seconds(context.suite));
  }
  for (const LaunchPoint& point : launch_points(context.suite, forced)) {
    register_all_devices(
        context, launch_benchmark_name(point),
        [&context, session, forced, point](benchmark::State& state, const std::vector<BenchmarkDevice>& devices) {
          run_time_per_call(state, context, *session, forced, devices, point);
        },
        "")
        ->MinTime(collective_min_time_seconds(context.suite));
  }
}

}  // namespace

GPUBENCH_FAMILY("nccl", register_nccl_benchmarks);

}  // namespace gpubench
