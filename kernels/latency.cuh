#pragma once
// Memory latency by pointer chase: a ring of nodes laid out `node_stride` bytes apart in one buffer, linked in
// an order the host chose at random, and a single thread that follows it. Each load's address comes from
// the previous load, so no two are ever in flight together and the time per step is the latency of one.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

namespace gpubench::kernels {

// What a chase leaves behind, so the host can check that it went where the ring says.
struct ChaseResult {
  std::uint64_t end;           // byte offset of the node reached after the last step
  std::uint64_t first_return;  // the step (1-based) that first came back to the start node; 0 if none did
};

// Links `nodes` nodes of `ring` into one cycle: the 8 bytes at node order[k] (byte offset order[k] *
// node_stride) receive the byte offset of node order[k + 1], and the last that of order[0]. `order` must be
// a permutation of [0, nodes), readable on the current device like `ring`; node_stride a multiple of 8.
cudaError_t build_ring(unsigned char* ring, std::size_t node_stride, const std::uint32_t* order, std::size_t nodes,
                       cudaStream_t stream);

// One thread on the current device follows `steps` links of `ring` (local memory, or a peer's through a
// peer mapping) from the node at byte offset `start`. Loads bypass L1 (ld.global.cg), so every step goes
// at least to L2. Over a ring of N nodes a chase of N steps visits each node once and ends where it began,
// with first_return == N.
cudaError_t launch_pointer_chase(const unsigned char* ring, std::uint64_t start, std::uint64_t steps, ChaseResult* result,
                                 cudaStream_t stream);

}  // namespace gpubench::kernels
