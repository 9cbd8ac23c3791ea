#pragma once
// STREAM-style device memory kernels (read, write, copy, scale, add, triad) with 16-byte vector accesses,
// and a device-side verifier that recomputes every element with the same arithmetic.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

namespace gpubench::kernels {

enum class StreamOp { Read, Write, Copy, Scale, Add, Triad };

// Arrays a and b are inputs and never written; c is the output; `sink` receives one word per thread of a
// Read launch (the XOR of the bits it read) so the compiler cannot drop the loads.
struct StreamArgs {
  const float* a = nullptr;
  const float* b = nullptr;
  float* c = nullptr;
  std::uint32_t* sink = nullptr;
  std::size_t sink_words = 0;  // capacity of sink; a Read launch needs grid * block words
  std::size_t count = 0;       // floats per array; a multiple of 4
  float scalar = 0.4f;
};

// How a stream kernel is launched. Unroll is how many 16-byte vectors a thread loads before it stores any.
struct StreamLaunch {
  int block = 256;
  int grid = 0;
  int unroll = 1;               // 1, 2, 4 or 8
  bool streaming_stores = false;  // st.global.cs: evict-first stores that do not linger in L2
  bool prefetch_loads = false;    // ld.global.nc.L1::no_allocate.L2::256B: read-only loads that ask L2 to
                                  // fetch the whole 256-byte sector group from DRAM at once
};

// Bytes moved per launch, counted as BabelStream does: each array read or written once.
std::size_t stream_bytes_moved(StreamOp op, std::size_t count);
const char* stream_op_name(StreamOp op);

cudaError_t launch_stream(StreamOp op, const StreamLaunch& launch, const StreamArgs& args, cudaStream_t stream);

// Resident blocks per SM for this kernel at this block size (0 if it cannot launch).
int stream_blocks_per_sm(StreamOp op, const StreamLaunch& launch);

// Adds to *mismatches the number of output elements that differ from what `op` should have produced
// (for Read: 1 if the XOR gathered in sink[0, sink_used) differs from the XOR of a). Run after the timed
// launches; the inputs are never written, so the output of the last launch is the output of every launch.
cudaError_t count_stream_mismatches(StreamOp op, const StreamArgs& args, std::size_t sink_used,
                                    unsigned long long* mismatches, cudaStream_t stream);

}  // namespace gpubench::kernels
