#include "benchmarks/nccl/allreduce_check.cuh"

namespace gpubench::kernels {
namespace {

__global__ void count_allreduce_mismatches_kernel(const float* actual, std::size_t count, int ranks,
                                                  AllReduceMismatches* mismatches) {
  unsigned long long wrong = 0;
  unsigned long long first = ~0ull;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    if (!allreduce_result_ok(actual[i], i, ranks)) {
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

cudaError_t fill_allreduce_input(float* data, std::size_t count, int rank, cudaStream_t stream) {
  return fill_random(data, count, allreduce_input_seed(rank), kAllReduceInputLo, kAllReduceInputHi, stream);
}

cudaError_t count_allreduce_mismatches(const float* actual, std::size_t count, int ranks, AllReduceMismatches* mismatches,
                                       cudaStream_t stream) {
  const std::size_t wanted = (count + kThreads - 1) / kThreads;
  const int blocks = wanted == 0 ? 1 : static_cast<int>(wanted < kMaxBlocks ? wanted : kMaxBlocks);
  count_allreduce_mismatches_kernel<<<blocks, kThreads, 0, stream>>>(actual, count, ranks, mismatches);
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
