#pragma once
// Device-side comparison of two buffers, so a copy can be checked byte for byte without bringing it home.
#include <cstddef>
#include <cuda_runtime.h>

namespace gpubench::kernels {

// Adds to *mismatches the number of 8-byte words (and trailing bytes) in which `actual` differs from
// `expected`. Both must be device-accessible.
cudaError_t count_byte_mismatches(const void* actual, const void* expected, std::size_t bytes,
                                  unsigned long long* mismatches, cudaStream_t stream);

}  // namespace gpubench::kernels
