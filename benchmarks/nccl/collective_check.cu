#include "benchmarks/nccl/collective_check.cuh"

namespace gpubench::kernels {
namespace {

__global__ void count_collective_mismatches_kernel(OutputToCheck output, CollectiveMismatches* mismatches) {
  unsigned long long wrong = 0;
  unsigned long long first = ~0ull;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < output.count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const ExpectedValue expected = expected_output(output.collective, output.rank, output.ranks, output.block, i);
    if (!output_ok(output.actual[i], expected)) {
      ++wrong;
      if (i < first) first = i;
    }
  }
  if (wrong != 0) {
    atomicAdd(&mismatches->count, wrong);
    atomicMin(&mismatches->first_index, first);
  }
}

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 4096;

}  // namespace

cudaError_t fill_collective_input(float* data, std::size_t count, int rank, cudaStream_t stream) {
  return fill_random(data, count, collective_input_seed(rank), kCollectiveInputLo, kCollectiveInputHi, stream);
}

cudaError_t count_collective_mismatches(const OutputToCheck& output, CollectiveMismatches* mismatches, cudaStream_t stream) {
  const std::size_t wanted = (output.count + kThreads - 1) / kThreads;
  const int blocks = wanted == 0 ? 1 : static_cast<int>(wanted < kMaxBlocks ? wanted : kMaxBlocks);
  count_collective_mismatches_kernel<<<blocks, kThreads, 0, stream>>>(output, mismatches);
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
