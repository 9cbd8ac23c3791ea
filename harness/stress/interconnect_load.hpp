#pragma once
// Traffic over a GPU's links while it is under load (`--interconnect`), so that link errors that come with heat
// show up: the GPU pulls a buffer from its peer over P2P (NVLink where there is one), and copies host -> device
// and device -> host over PCIe, each copy checked byte for byte against what was sent. Every GPU pulls from the
// next one of the run (in a ring; with two GPUs each pulls from the other, so every link carries both ways).
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/host_buffer.hpp"
#include "benchmarks/common/peer_access.hpp"
#include "harness/stress/stress_record.hpp"

namespace gpubench {

// One GPU's buffers: what it sends (random bytes seeded by its index), what it receives, and what it expects from
// its peer (the peer's bytes, made here from the peer's seed).
class InterconnectLoad {
 public:
  static constexpr std::size_t kBytes = std::size_t(256) << 20;
  // On the current device, which is `device`; `peer` < 0 for none.
  InterconnectLoad(int device, int peer);
  int device() const { return device_; }
  int peer() const { return peer_; }
  const void* outgoing() const { return outgoing_.get(); }

  // Copies until the deadline or a stop, adding each to `record` under `mutex`. `peer_outgoing` is the peer's
  // outgoing buffer, or null for no P2P.
  void run(const void* peer_outgoing, std::chrono::steady_clock::time_point deadline, const std::atomic<bool>& stop,
           InterconnectRecord& record, std::mutex& mutex);

 private:
  int device_;
  int peer_;
  DeviceBuffer<unsigned char> outgoing_;
  DeviceBuffer<unsigned char> incoming_;
  DeviceBuffer<unsigned char> expected_from_peer_;
  DeviceBuffer<unsigned char> from_host_;
  DeviceBuffer<unsigned long long> mismatches_;
  HostBuffer host_sent_;      // the outgoing bytes, sent host -> device
  HostBuffer host_received_;  // device -> host copies of the outgoing bytes
  CudaStream stream_;
};

// The P2P pairs of a run (GPU i pulls from GPU i+1), peer access enabled for its length; a GPU without a peer
// says why.
struct InterconnectPlan {
  std::vector<std::unique_ptr<InterconnectLoad>> loads;  // one per GPU of the run, in its order
  std::vector<std::string> p2p_skipped;                  // per GPU: why it has no P2P traffic, or empty
  std::vector<std::unique_ptr<PeerAccess>> access;
};

InterconnectPlan plan_interconnect(const std::vector<int>& devices);

}  // namespace gpubench
