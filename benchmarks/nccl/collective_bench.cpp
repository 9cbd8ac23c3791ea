#include "benchmarks/nccl/collective_bench.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/nccl/collective_check.cuh"
#include "benchmarks/nccl/nccl_check.hpp"

namespace gpubench {
namespace {

constexpr int kWarmupCalls = 3;

void poison(float* data, std::size_t count, cudaStream_t stream) {
  GPUBENCH_CUDA_CHECK(cudaMemsetAsync(data, 0xFF, count * sizeof(float), stream));  // all ones: NaN
}

}  // namespace

CollectiveBench::CollectiveBench(const NcclCommunicators& communicators, const CollectiveSpec& spec,
                                 const CallShape& shape, Placement placement)
    : communicators_(communicators), spec_(spec), shape_(shape), placement_(placement) {
  if (shape.block == 0) {
    throw std::invalid_argument(std::string(collective_id_name(spec.kind)) + " call with no element per block");
  }
  if (placement == Placement::InPlace && !spec.has_in_place) {
    throw std::invalid_argument(std::string(collective_id_name(spec.kind)) + " has no in-place form");
  }
  for (const NcclCommunicators::LocalRank& local : communicators.local_ranks()) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(local.device));
    RankState state;
    state.local = &local;
    if (placement == Placement::InPlace) {
      state.buffer = std::make_unique<DeviceBuffer<float>>(std::max(shape.send_count, shape.recv_count));
      const InPlaceOffsets offsets = in_place_offsets(spec, shape, local.rank);
      state.send = state.buffer->get() + offsets.send;
      state.recv = state.buffer->get() + offsets.recv;
    } else {
      state.buffer = std::make_unique<DeviceBuffer<float>>(shape.recv_count);
      state.send_buffer = std::make_unique<DeviceBuffer<float>>(shape.send_count);
      state.send = state.send_buffer->get();
      state.recv = state.buffer->get();
    }
    state.timer = std::make_unique<EventTimer>();
    ranks_.push_back(std::move(state));
  }
  refresh_inputs();
}

void CollectiveBench::enqueue_call() {
  GPUBENCH_NCCL_CHECK(ncclGroupStart(), nullptr);
  for (const RankState& state : ranks_) {
    RankCall call;
    call.send = state.send;
    call.recv = state.recv;
    call.block = shape_.block;
    call.rank = state.local->rank;
    call.ranks = communicators_.world_size();
    call.comm = state.local->comm;
    call.stream = state.local->stream->get();
    const ncclResult_t status = spec_.enqueue(call);
    if (status != ncclSuccess) {
      ncclGroupEnd();  // leaves no group open behind the exception
      throw NcclError(spec_.nccl_call, status, state.local->comm, __FILE__, __LINE__);
    }
  }
  GPUBENCH_NCCL_CHECK(ncclGroupEnd(), nullptr);
}

void CollectiveBench::enqueue_calls(int calls) {
  for (int call = 0; call < calls; ++call) enqueue_call();
}

void CollectiveBench::synchronize() const {
  for (const RankState& state : ranks_) state.local->stream->synchronize();
}

void CollectiveBench::warm_up() {
  for (int call = 0; call < kWarmupCalls; ++call) {
    enqueue_call();
    synchronize();
  }
  if (placement_ == Placement::InPlace) return;
  for (const RankState& state : ranks_) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(state.local->device));
    poison(state.buffer->get(), state.buffer->count(), state.local->stream->get());
  }
  synchronize();
}

void CollectiveBench::refresh_inputs() {
  for (const RankState& state : ranks_) {
    const cudaStream_t stream = state.local->stream->get();
    GPUBENCH_CUDA_CHECK(cudaSetDevice(state.local->device));
    if (placement_ == Placement::InPlace) poison(state.buffer->get(), state.buffer->count(), stream);
    GPUBENCH_CUDA_CHECK(kernels::fill_collective_input(state.send, shape_.send_count, state.local->rank, stream));
  }
  synchronize();
}

void CollectiveBench::enqueue_timed(CopyGate& gate, int calls) {
  for (const RankState& state : ranks_) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(state.local->device));
    gate.close(state.local->stream->get());
    state.timer->start(state.local->stream->get());
  }
  enqueue_calls(calls);
  for (const RankState& state : ranks_) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(state.local->device));
    state.timer->stop(state.local->stream->get());
  }
}

std::vector<double> CollectiveBench::elapsed_seconds() const {
  std::vector<double> seconds;
  for (const RankState& state : ranks_) seconds.push_back(state.timer->seconds());
  return seconds;
}

std::vector<RankCheck> CollectiveBench::check() {
  if (placement_ == Placement::InPlace) {
    refresh_inputs();
    enqueue_call();
    synchronize();
  }
  std::vector<RankCheck> checks;
  for (const RankState& state : ranks_) checks.push_back(check_rank(state));
  return checks;
}

RankCheck CollectiveBench::check_rank(const RankState& state) const {
  RankCheck check;
  check.rank = state.local->rank;
  check.device = state.local->device;
  if (!kernels::output_checked(spec_.kind, check.rank)) return check;

  const cudaStream_t stream = state.local->stream->get();
  const int world = communicators_.world_size();
  GPUBENCH_CUDA_CHECK(cudaSetDevice(state.local->device));
  DeviceBuffer<kernels::CollectiveMismatches> counter(1);
  kernels::CollectiveMismatches found{0, ~0ull};
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(counter.get(), &found, sizeof found, cudaMemcpyHostToDevice, stream));
  const kernels::OutputToCheck output{spec_.kind, state.recv, shape_.recv_count, check.rank, world, shape_.block};
  GPUBENCH_CUDA_CHECK(kernels::count_collective_mismatches(output, counter.get(), stream));
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(&found, counter.get(), sizeof found, cudaMemcpyDeviceToHost, stream));
  state.local->stream->synchronize();
  check.mismatches = found.count;
  if (found.count != 0) {
    check.first_index = found.first_index;
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(&check.actual, state.recv + found.first_index, sizeof(float),
                                        cudaMemcpyDeviceToHost, stream));
    state.local->stream->synchronize();
    const kernels::ExpectedValue expected =
        kernels::expected_output(spec_.kind, check.rank, world, shape_.block, found.first_index);
    check.expected = expected.value;
    check.tolerance = expected.tolerance;
  }
  return check;
}

}  // namespace gpubench
