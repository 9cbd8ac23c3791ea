#include "kernels/verify.cuh"

#include <cstdint>

namespace gpubench::kernels {
namespace {

// Adds to *mismatches the number of elements in which `actual` differs from `expected`: 8-byte words, or
// single bytes for what is left over.
template <class Element>
__global__ void count_element_mismatches_kernel(const Element* actual, const Element* expected, std::size_t count,
                                                unsigned long long* mismatches) {
  unsigned long long bad = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    bad += actual[i] != expected[i];
  }
  if (bad) atomicAdd(mismatches, bad);
}

}  // namespace

cudaError_t count_byte_mismatches(const void* actual, const void* expected, std::size_t bytes,
                                  unsigned long long* mismatches, cudaStream_t stream) {
  const bool aligned = (reinterpret_cast<std::uintptr_t>(actual) % 8 == 0) &&
                       (reinterpret_cast<std::uintptr_t>(expected) % 8 == 0);
  const std::size_t words = aligned ? bytes / 8 : 0;
  if (words > 0) {
    count_element_mismatches_kernel<<<4096, 256, 0, stream>>>(static_cast<const std::uint64_t*>(actual),
                                                              static_cast<const std::uint64_t*>(expected), words,
                                                              mismatches);
  }
  // Unaligned buffers, and the last few bytes of aligned ones, are compared byte by byte.
  const std::size_t done = words * 8;
  if (done < bytes) {
    count_element_mismatches_kernel<<<aligned ? 1 : 4096, 256, 0, stream>>>(
        static_cast<const unsigned char*>(actual) + done, static_cast<const unsigned char*>(expected) + done,
        bytes - done, mismatches);
  }
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
