// The nccl family's own machinery on real GPUs: every collective's result on random inputs passes the check, out of
// place and in place, at sizes that are a multiple of nothing NCCL likes, timed behind the gate and replayed from
// CUDA Graphs; and the check catches one wrong element in one rank's output.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "benchmarks/common/copy_gate.hpp"
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/nccl/captured_calls.hpp"
#include "benchmarks/nccl/collective_bench.hpp"
#include "benchmarks/nccl/collective_check.cuh"
#include "benchmarks/nccl/collective_table.hpp"
#include "benchmarks/nccl/nccl_check.hpp"
#include "benchmarks/nccl/nccl_communicators.hpp"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

constexpr std::size_t kOddCount = 999'983;  // prime: no chunk, channel or 128-byte line divides it

int visible_gpus() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

#define REQUIRE_TWO_GPUS()                                     \
  do {                                                         \
    GPUBENCH_REQUIRE_GPU();                                    \
    if (visible_gpus() < 2) GTEST_SKIP() << "needs two GPUs"; \
  } while (false)

// Every visible GPU, one rank each.
std::unique_ptr<NcclCommunicators> every_gpu() {
  std::vector<int> devices(visible_gpus());
  std::iota(devices.begin(), devices.end(), 0);
  return NcclCommunicators::for_devices(devices);
}

// A call whose blocks hold `count` floats each.
CallShape odd_shape(const CollectiveSpec& spec, int ranks, std::size_t count = kOddCount) {
  const bool split = spec.send_blocks == Blocks::PerRank || spec.recv_blocks == Blocks::PerRank;
  const CallShape shape = call_shape(spec, count * sizeof(float) * (split ? ranks : 1), ranks);
  EXPECT_EQ(shape.block, count);
  return shape;
}

std::string failures_of(const std::vector<RankCheck>& checks) {
  std::string text;
  for (const RankCheck& check : checks) {
    if (check.mismatches == 0) continue;
    text += "rank " + std::to_string(check.rank) + ": " + std::to_string(check.mismatches) + " wrong, the first " +
            std::to_string(check.first_index) + " is " + std::to_string(check.actual) + " for " +
            std::to_string(check.expected) + "; ";
  }
  return text;
}

void expect_verified(Collective collective, Placement placement) {
  SCOPED_TRACE(std::string(collective_id_name(collective)) + " " + placement_name(placement));
  const std::unique_ptr<NcclCommunicators> communicators = every_gpu();
  const CollectiveSpec& spec = collective_spec(collective);
  CollectiveBench bench(*communicators, spec, odd_shape(spec, communicators->world_size()), placement);
  bench.warm_up();
  CopyGate gate;
  for (int sample = 0; sample < 3; ++sample) {
    if (placement == Placement::InPlace) bench.refresh_inputs();
    bench.enqueue_timed(gate, 4);
    gate.open();
    for (double seconds : bench.elapsed_seconds()) EXPECT_GT(seconds, 0.0);
  }
  EXPECT_FALSE(gate.timed_out());
  const std::vector<RankCheck> checks = bench.check();
  ASSERT_EQ(checks.size(), static_cast<std::size_t>(communicators->world_size()));
  EXPECT_EQ(failures_of(checks), "");
  EXPECT_EQ(describe_mismatches(collective, checks, bench.shape().recv_count), "");
}

TEST(NcclCollectives, EveryResultIsWhatTheCollectiveMustMakeOfTheInputs) {
  REQUIRE_TWO_GPUS();
  for (const CollectiveSpec& spec : collective_table()) {
    expect_verified(spec.kind, Placement::OutOfPlace);
    if (spec.has_in_place) expect_verified(spec.kind, Placement::InPlace);
  }
}

TEST(NcclCollectives, GraphReplaysGiveTheSameResults) {
  REQUIRE_TWO_GPUS();
  ASSERT_EQ(capture_unsupported_reason(), "");
  const std::unique_ptr<NcclCommunicators> communicators = every_gpu();
  for (const CollectiveSpec& spec : collective_table()) {
    SCOPED_TRACE(std::string(collective_id_name(spec.kind)));
    CollectiveBench bench(*communicators, spec, odd_shape(spec, communicators->world_size(), 251), Placement::OutOfPlace);
    bench.warm_up();  // poisons the outputs: only the replays write them
    const CapturedCalls captured(bench, *communicators, 4);
    captured.launch();
    captured.launch();
    bench.synchronize();
    EXPECT_EQ(failures_of(bench.check()), "");
  }
}

// One out-of-place call of `spec` on every GPU through the table's own NCCL call; each rank's receive buffer kept.
struct RankOutput {
  const NcclCommunicators::LocalRank* local;
  std::unique_ptr<DeviceBuffer<float>> send;
  std::unique_ptr<DeviceBuffer<float>> recv;
};

std::vector<RankOutput> call_once(const NcclCommunicators& communicators, const CollectiveSpec& spec, const CallShape& shape) {
  std::vector<RankOutput> outputs;
  for (const NcclCommunicators::LocalRank& local : communicators.local_ranks()) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(local.device));
    RankOutput output{&local, std::make_unique<DeviceBuffer<float>>(shape.send_count),
                      std::make_unique<DeviceBuffer<float>>(shape.recv_count)};
    GPUBENCH_CUDA_CHECK(kernels::fill_collective_input(output.send->get(), shape.send_count, local.rank, local.stream->get()));
    outputs.push_back(std::move(output));
  }
  GPUBENCH_NCCL_CHECK(ncclGroupStart(), nullptr);
  for (const RankOutput& output : outputs) {
    RankCall call;
    call.send = output.send->get();
    call.recv = output.recv->get();
    call.block = shape.block;
    call.rank = output.local->rank;
    call.ranks = communicators.world_size();
    call.comm = output.local->comm;
    call.stream = output.local->stream->get();
    GPUBENCH_NCCL_CHECK(spec.enqueue(call), call.comm);
  }
  GPUBENCH_NCCL_CHECK(ncclGroupEnd(), nullptr);
  for (const RankOutput& output : outputs) output.local->stream->synchronize();
  return outputs;
}

kernels::CollectiveMismatches mismatches_in(const kernels::OutputToCheck& output, cudaStream_t stream) {
  DeviceBuffer<kernels::CollectiveMismatches> counter(1);
  kernels::CollectiveMismatches found{0, ~0ull};
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(counter.get(), &found, sizeof found, cudaMemcpyHostToDevice, stream));
  GPUBENCH_CUDA_CHECK(kernels::count_collective_mismatches(output, counter.get(), stream));
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(&found, counter.get(), sizeof found, cudaMemcpyDeviceToHost, stream));
  GPUBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return found;
}

TEST(NcclCollectives, OneWrongElementInOneRanksOutputIsCaught) {
  REQUIRE_TWO_GPUS();
  const std::unique_ptr<NcclCommunicators> communicators = every_gpu();
  const int ranks = communicators->world_size();
  for (const CollectiveSpec& spec : collective_table()) {
    SCOPED_TRACE(std::string(collective_id_name(spec.kind)));
    const CallShape shape = odd_shape(spec, ranks, 4099);
    const std::vector<RankOutput> outputs = call_once(*communicators, spec, shape);
    const RankOutput& victim = spec.kind == Collective::Reduce ? outputs[kernels::kCollectiveRoot] : outputs.back();
    for (const RankOutput& output : outputs) {
      if (!kernels::output_checked(spec.kind, output.local->rank)) continue;
      GPUBENCH_CUDA_CHECK(cudaSetDevice(output.local->device));
      const kernels::OutputToCheck check{spec.kind, output.recv->get(), shape.recv_count, output.local->rank, ranks, shape.block};
      EXPECT_EQ(mismatches_in(check, output.local->stream->get()).count, 0u) << "rank " << output.local->rank;
    }
    const std::size_t corrupted = shape.recv_count - 17;
    GPUBENCH_CUDA_CHECK(cudaSetDevice(victim.local->device));
    const float wrong = 1e6f;
    GPUBENCH_CUDA_CHECK(cudaMemcpy(victim.recv->get() + corrupted, &wrong, sizeof wrong, cudaMemcpyHostToDevice));
    const kernels::OutputToCheck check{spec.kind, victim.recv->get(), shape.recv_count, victim.local->rank, ranks, shape.block};
    const kernels::CollectiveMismatches found = mismatches_in(check, victim.local->stream->get());
    EXPECT_EQ(found.count, 1u);
    EXPECT_EQ(found.first_index, corrupted);
  }
}

// The check alone, on one GPU: rank 1 of 2's output built from expected_output, then one element corrupted.
std::vector<float> correct_output(Collective collective, std::size_t count, std::size_t block) {
  std::vector<float> values(count);
  for (std::size_t i = 0; i < count; ++i) {
    values[i] = static_cast<float>(kernels::expected_output(collective, 1, 2, block, i).value);
  }
  return values;
}

unsigned long long mismatches_in(Collective collective, const std::vector<float>& values, std::size_t block,
                                 unsigned long long* first_index) {
  DeviceBuffer<float> data(values.size());
  GPUBENCH_CUDA_CHECK(cudaMemcpy(data.get(), values.data(), data.bytes(), cudaMemcpyHostToDevice));
  const kernels::CollectiveMismatches found = mismatches_in({collective, data.get(), values.size(), 1, 2, block}, nullptr);
  *first_index = found.first_index;
  return found.count;
}

TEST(CollectiveCheck, AcceptsTheRightOutputAndCatchesOneCorruptedElement) {
  GPUBENCH_REQUIRE_GPU();
  GPUBENCH_CUDA_CHECK(cudaSetDevice(0));
  const std::vector<std::function<float(float)>> corruptions = {
      [](float) { return 0.0f; },
      [](float) { return std::numeric_limits<float>::quiet_NaN(); },
      [](float value) { return value + 1e-3f; },  // small, yet thousands of times the rounding
  };
  for (Collective collective : kEveryCollective) {
    if (!kernels::output_checked(collective, 1)) continue;  // a reduce's rank 1 receives nothing
    const CallShape shape = call_shape(collective_spec(collective), kOddCount * sizeof(float) * 2, 2);
    const std::size_t corrupted = shape.recv_count - 17;
    unsigned long long first = 0;
    EXPECT_EQ(mismatches_in(collective, correct_output(collective, shape.recv_count, shape.block), shape.block, &first), 0u)
        << collective_id_name(collective);
    for (std::size_t k = 0; k < corruptions.size(); ++k) {
      std::vector<float> values = correct_output(collective, shape.recv_count, shape.block);
      values[corrupted] = corruptions[k](values[corrupted]);
      EXPECT_EQ(mismatches_in(collective, values, shape.block, &first), 1u) << collective_id_name(collective) << " " << k;
      EXPECT_EQ(first, corrupted) << collective_id_name(collective) << " " << k;
    }
  }
}

TEST(CollectiveCheck, CatchesAMissingContribution) {
  GPUBENCH_REQUIRE_GPU();
  GPUBENCH_CUDA_CHECK(cudaSetDevice(0));
  std::vector<float> only_rank0(kOddCount);
  for (std::size_t i = 0; i < kOddCount; ++i) only_rank0[i] = kernels::collective_input(0, i);
  unsigned long long first = 0;
  EXPECT_EQ(mismatches_in(Collective::AllReduce, only_rank0, kOddCount, &first), kOddCount);
  EXPECT_EQ(first, 0u);
}

}  // namespace
}  // namespace gpubench
