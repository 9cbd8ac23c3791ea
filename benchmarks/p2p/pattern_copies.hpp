#pragma once
// A concurrent copy pattern (copy_patterns.hpp) on the GPUs: per copy, a PeerTransfer and a GatedLane on the
// sending GPU, all behind one CopyGate, so every copy starts at the gate's release and each lane times itself to
// its copy's end; a round lasts until the last copy is done. Peer access must be enabled between the GPUs.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "benchmarks/common/copy_gate.hpp"
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/gated_lane.hpp"
#include "benchmarks/p2p/copy_patterns.hpp"
#include "benchmarks/p2p/peer_transfer.hpp"
#include "kernels/p2p_copy.cuh"

namespace gpubench {

class PatternCopies {
 public:
  // Copy i's source is random from seed + i.
  PatternCopies(CopyDriver driver, const std::vector<PeerCopy>& copies, std::size_t bytes, std::uint64_t seed)
      : driver_(driver) {
    for (const PeerCopy& copy : copies) {
      transfers_.push_back(std::make_unique<PeerTransfer>(copy.from, copy.to, bytes, seed++));
      lanes_.push_back(std::make_unique<GatedLane>(copy.from));  // leaves the sender current
      kernels::PeerCopyLaunch launch;
      if (driver == CopyDriver::Sm) GPUBENCH_CUDA_CHECK(kernels::peer_copy_launch_for_current_device(&launch));
      launches_.push_back(launch);
    }
  }

  std::size_t size() const { return transfers_.size(); }
  const PeerTransfer& transfer(std::size_t i) const { return *transfers_[i]; }
  const kernels::PeerCopyLaunch& launch(std::size_t i) const { return launches_[i]; }

  // Every copy's source and destination, for poisoning before a checked round and for the check.
  std::vector<PeerTransfer*> transfers() const {
    std::vector<PeerTransfer*> all;
    for (const auto& transfer : transfers_) all.push_back(transfer.get());
    return all;
  }

  // Puts `batch` copies on each lane behind the closed gate. Nothing here waits for the GPU.
  void enqueue_round(CopyGate& gate, std::size_t batch) const {
    for (std::size_t i = 0; i < size(); ++i) {
      GatedLane& lane = *lanes_[i];
      const PeerTransfer& t = *transfers_[i];
      lane.begin(gate);
      for (std::size_t b = 0; b < batch; ++b) {
        if (driver_ == CopyDriver::CopyEngine) {
          GPUBENCH_CUDA_CHECK(cudaMemcpyPeerAsync(t.destination(), t.to(), t.source(), t.from(), t.bytes(), lane.stream()));
        } else {
          GPUBENCH_CUDA_CHECK(kernels::launch_peer_copy(t.destination(), t.source(), t.bytes(), launches_[i], lane.stream()));
        }
      }
      lane.end();
    }
  }

  // Waits for the round; each copy's seconds from the gate's release to its end.
  std::vector<double> lane_seconds() const {
    std::vector<double> seconds;
    for (const auto& lane : lanes_) seconds.push_back(lane->seconds());
    return seconds;
  }

  // How the copies were driven, for a failure's reason.
  std::string how() const {
    return driver_ == CopyDriver::CopyEngine ? "cudaMemcpyPeerAsync on a stream of each sender, every copy at once"
                                             : "SM stores on each sender, every copy at once";
  }

 private:
  CopyDriver driver_;
  std::vector<std::unique_ptr<PeerTransfer>> transfers_;
  std::vector<std::unique_ptr<GatedLane>> lanes_;
  std::vector<kernels::PeerCopyLaunch> launches_;
};

}  // namespace gpubench
