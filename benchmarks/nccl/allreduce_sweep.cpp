#include "benchmarks/nccl/allreduce_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "benchmarks/common/collective_bandwidth.hpp"
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/nccl/allreduce_check.cuh"
#include "benchmarks/nccl/nccl_check.hpp"

namespace gpubench {
namespace {

constexpr std::size_t kSmallestBytes = 8;
constexpr std::size_t kLargestBytes = std::size_t{4} << 30;
constexpr int kWarmupCalls = 3;
constexpr int kMaxCallsPerSample = 16;

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

}  // namespace

const char* placement_name(Placement placement) {
  return placement == Placement::InPlace ? "in_place" : "out_of_place";
}

std::vector<std::size_t> allreduce_sizes(Suite suite) {
  const std::size_t step = suite == Suite::Quick ? 8 : 2;
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = kSmallestBytes; bytes <= kLargestBytes; bytes *= step) sizes.push_back(bytes);
  for (std::size_t always : {std::size_t{1} << 30, kLargestBytes}) {
    if (std::find(sizes.begin(), sizes.end(), always) == sizes.end()) sizes.push_back(always);
  }
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

std::vector<Placement> allreduce_placements(Suite suite, const NcclCombination& forced) {
  const bool chosen_by_nccl = forced == NcclCombination{"auto", "auto"};
  if (suite == Suite::Quick && !chosen_by_nccl) return {Placement::OutOfPlace};
  return {Placement::OutOfPlace, Placement::InPlace};
}

std::string allreduce_benchmark_name(const NcclCombination& forced, std::size_t bytes, Placement placement) {
  return "nccl/allreduce/" + forced.algo + "/" + forced.proto + "/" + size_name(bytes) + "/" + placement_name(placement);
}

int calls_per_sample(std::size_t bytes, int ranks, Placement placement) {
  // Up to 1 MiB a call lasts about NCCL's latency (10-20 us over NVLink); from 64 MiB on, one call is long enough.
  int calls = 1;
  if (bytes <= (std::size_t{1} << 20)) {
    calls = kMaxCallsPerSample;
  } else if (bytes <= (std::size_t{8} << 20)) {
    calls = 4;
  } else if (bytes < (std::size_t{64} << 20)) {
    calls = 2;
  }
  if (placement == Placement::InPlace && ranks > 1) {
    calls = std::min(calls, std::max(1, static_cast<int>(30.0 / std::log10(static_cast<double>(ranks)))));
  }
  return calls;
}

std::string describe_mismatches(const std::vector<RankCheck>& checks, std::size_t count) {
  std::string reason;
  for (const RankCheck& check : checks) {
    if (check.mismatches == 0) continue;
    reason += reason.empty() ? "wrong all-reduce result: " : "; ";
    char detail[256];
    std::snprintf(detail, sizeof detail,
                  "rank %d (GPU %d): %llu of %zu elements differ from the expected sum, the first at element %llu: "
                  "%.9g instead of %.9g (tolerance %.3g)",
                  check.rank, check.device, check.mismatches, count, check.first_index, static_cast<double>(check.actual),
                  check.expected, check.tolerance);
    reason += detail;
  }
  return reason;
}

double allreduce_busbw_gbps(const AllReduceMeasurement& m) {
  return allreduce_bus_bandwidth_gbps(static_cast<double>(m.bytes), m.mean_seconds, m.ranks);
}

std::map<std::string, std::string> allreduce_params(const AllReduceMeasurement& m) {
  return {
      {"time_us", format_number(m.mean_seconds * 1e6)},
      {"algbw_GBps", format_number(algorithm_bandwidth_gbps(static_cast<double>(m.bytes), m.mean_seconds))},
      {"bytes", std::to_string(m.bytes)},
      {"ranks", std::to_string(m.ranks)},
      {"placement", placement_name(m.placement)},
      {"calls_per_sample", std::to_string(m.calls_per_sample)},
      {"datatype", "float32"},
      {"op", "sum"},
      {"nccl_algo_forced", m.forced.algo},
      {"nccl_proto_forced", m.forced.proto},
      {"nccl_algo_used", m.used ? m.used->algo : "unknown"},
      {"nccl_proto_used", m.used ? m.used->proto : "unknown"},
      {"mode", m.mode},
  };
}

AllReduceBench::AllReduceBench(const NcclCommunicators& communicators, std::size_t bytes, Placement placement)
    : communicators_(communicators), count_(bytes / sizeof(float)), placement_(placement) {
  if (bytes == 0 || bytes % sizeof(float) != 0) {
    throw std::invalid_argument("all-reduce size " + std::to_string(bytes) + " is not a whole number of floats");
  }
  for (const NcclCommunicators::LocalRank& local : communicators.local_ranks()) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(local.device));
    RankState state;
    state.local = &local;
    state.input = std::make_unique<DeviceBuffer<float>>(count_);
    if (placement == Placement::OutOfPlace) state.output = std::make_unique<DeviceBuffer<float>>(count_);
    state.timer = std::make_unique<EventTimer>();
    GPUBENCH_CUDA_CHECK(kernels::fill_allreduce_input(state.input->get(), count_, local.rank, local.stream->get()));
    ranks_.push_back(std::move(state));
  }
  synchronize();
}

void AllReduceBench::enqueue_call() {
  GPUBENCH_NCCL_CHECK(ncclGroupStart(), nullptr);
  for (const RankState& state : ranks_) {
    const ncclResult_t status = ncclAllReduce(state.input->get(), state.result(), count_, ncclFloat, ncclSum,
                                              state.local->comm, state.local->stream->get());
    if (status != ncclSuccess) {
      ncclGroupEnd();  // leaves no group open behind the exception
      throw NcclError("ncclAllReduce", status, state.local->comm, __FILE__, __LINE__);
    }
  }
  GPUBENCH_NCCL_CHECK(ncclGroupEnd(), nullptr);
}

void AllReduceBench::synchronize() const {
  for (const RankState& state : ranks_) state.local->stream->synchronize();
}

void AllReduceBench::warm_up() {
  for (int call = 0; call < kWarmupCalls; ++call) {
    enqueue_call();
    synchronize();
  }
  for (const RankState& state : ranks_) {
    if (!state.output) continue;
    GPUBENCH_CUDA_CHECK(cudaSetDevice(state.local->device));
    GPUBENCH_CUDA_CHECK(cudaMemsetAsync(state.output->get(), 0xFF, state.output->bytes(), state.local->stream->get()));
  }
  synchronize();
}

void AllReduceBench::refresh_inputs() {
  for (const RankState& state : ranks_) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(state.local->device));
    GPUBENCH_CUDA_CHECK(kernels::fill_allreduce_input(state.input->get(), count_, state.local->rank, state.local->stream->get()));
  }
  synchronize();
}

void AllReduceBench::enqueue_timed(CopyGate& gate, int calls) {
  for (const RankState& state : ranks_) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(state.local->device));
    gate.close(state.local->stream->get());
    state.timer->start(state.local->stream->get());
  }
  for (int call = 0; call < calls; ++call) enqueue_call();
  for (const RankState& state : ranks_) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(state.local->device));
    state.timer->stop(state.local->stream->get());
  }
}

std::vector<double> AllReduceBench::elapsed_seconds() const {
  std::vector<double> seconds;
  for (const RankState& state : ranks_) seconds.push_back(state.timer->seconds());
  return seconds;
}

std::vector<RankCheck> AllReduceBench::check() {
  if (placement_ == Placement::InPlace) {
    refresh_inputs();
    enqueue_call();
    synchronize();
  }
  std::vector<RankCheck> checks;
  const int world = communicators_.world_size();
  for (const RankState& state : ranks_) {
    const cudaStream_t stream = state.local->stream->get();
    GPUBENCH_CUDA_CHECK(cudaSetDevice(state.local->device));
    DeviceBuffer<kernels::AllReduceMismatches> counter(1);
    kernels::AllReduceMismatches found{0, ~0ull};
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(counter.get(), &found, sizeof found, cudaMemcpyHostToDevice, stream));
    GPUBENCH_CUDA_CHECK(kernels::count_allreduce_mismatches(state.result(), count_, world, counter.get(), stream));
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(&found, counter.get(), sizeof found, cudaMemcpyDeviceToHost, stream));
    state.local->stream->synchronize();
    RankCheck check;
    check.rank = state.local->rank;
    check.device = state.local->device;
    check.mismatches = found.count;
    if (found.count != 0) {
      check.first_index = found.first_index;
      GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(&check.actual, state.result() + found.first_index, sizeof(float),
                                          cudaMemcpyDeviceToHost, stream));
      state.local->stream->synchronize();
      const kernels::ExpectedSum expected = kernels::expected_allreduce_sum(found.first_index, world);
      check.expected = expected.value;
      check.tolerance = expected.tolerance;
    }
    checks.push_back(check);
  }
  return checks;
}

}  // namespace gpubench
