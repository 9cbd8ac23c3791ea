#pragma once
// A copy done by SM loads and stores rather than by a copy engine, for GPU-to-GPU transfers over a peer
// mapping: launched on the sending GPU it stores into the peer's memory (a remote write); launched on the
// receiving GPU it loads from the peer's memory (a remote read). Either pointer may be a peer's.
#include <cstddef>
#include <cuda_runtime.h>

namespace gpubench::kernels {

struct PeerCopyLaunch {
  int grid = 0;
  int block = 0;
};

// The launch that fills the current device: as many blocks per SM as are resident at once, times its SM
// count (the kernel loops over the buffer, so the grid does not depend on the size).
cudaError_t peer_copy_launch_for_current_device(PeerCopyLaunch* launch);

// Copies `bytes` from `source` to `destination` on `stream`, which must belong to the current device. When
// both pointers are 16-byte aligned each thread moves 16-byte vectors, several loads in flight before its
// stores, and a few trailing bytes one by one; otherwise the whole copy goes byte by byte (correct but slow:
// for odd offsets in tests, never for a measurement).
cudaError_t launch_peer_copy(void* destination, const void* source, std::size_t bytes, const PeerCopyLaunch& launch,
                             cudaStream_t stream);

}  // namespace gpubench::kernels
