#pragma once
// Peer access between two GPUs, both ways, for a scope (RAII).
#include <string>

#include "benchmarks/common/cuda_check.hpp"

namespace gpubench {

// True when each of the two GPUs may map the other's memory.
inline bool peer_access_possible(int a, int b) {
  int a_to_b = 0;
  int b_to_a = 0;
  GPUBENCH_CUDA_CHECK(cudaDeviceCanAccessPeer(&a_to_b, a, b));
  GPUBENCH_CUDA_CHECK(cudaDeviceCanAccessPeer(&b_to_a, b, a));
  return a_to_b != 0 && b_to_a != 0;
}

// Enabled where cudaDeviceCanAccessPeer allows it, and disabled again at the end of the scope where this scope
// was the one that enabled it.
class PeerAccess {
 public:
  PeerAccess(int a, int b) : a_(a), b_(b) {
    if (!peer_access_possible(a, b)) {
      why_not_ = "peer access between gpu" + std::to_string(a) + " and gpu" + std::to_string(b) +
                 " is not possible (cudaDeviceCanAccessPeer says no for at least one direction)";
      return;
    }
    enabled_from_a_ = enable(a, b);
    try {
      enabled_from_b_ = enable(b, a);
    } catch (...) {
      disable();
      throw;
    }
  }
  ~PeerAccess() { disable(); }
  PeerAccess(const PeerAccess&) = delete;
  PeerAccess& operator=(const PeerAccess&) = delete;

  bool enabled() const { return why_not_.empty(); }
  const std::string& why_not() const { return why_not_; }

 private:
  // True when this call enabled access; false when it already was enabled.
  static bool enable(int device, int peer) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(device));
    const cudaError_t status = cudaDeviceEnablePeerAccess(peer, 0);
    if (status == cudaErrorPeerAccessAlreadyEnabled) {
      cudaGetLastError();  // not sticky, but the next kernel launch's check would report it
      return false;
    }
    GPUBENCH_CUDA_CHECK(status);
    return true;
  }
  void disable() {
    if (enabled_from_a_ && cudaSetDevice(a_) == cudaSuccess) cudaDeviceDisablePeerAccess(b_);
    if (enabled_from_b_ && cudaSetDevice(b_) == cudaSuccess) cudaDeviceDisablePeerAccess(a_);
    enabled_from_a_ = enabled_from_b_ = false;
    cudaGetLastError();  // a failure here has nothing left to spoil; leave no error for the next check
  }

  int a_;
  int b_;
  std::string why_not_;
  bool enabled_from_a_ = false;
  bool enabled_from_b_ = false;
};

}  // namespace gpubench
