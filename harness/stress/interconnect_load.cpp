#include "harness/stress/interconnect_load.hpp"

#include <cstring>

#include "benchmarks/common/cuda_check.hpp"
#include "kernels/random_fill.cuh"
#include "kernels/verify.cuh"

namespace gpubench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kP2pCopiesPerRound = 4;  // P2P copies are ~30x faster than a host copy: keep the links about as busy
constexpr std::uint64_t kSeed = 0x1C0FFEEull;

}  // namespace

InterconnectLoad::InterconnectLoad(int device, int peer)
    : device_(device),
      peer_(peer),
      outgoing_(kBytes),
      incoming_(kBytes),
      expected_from_peer_(kBytes),
      from_host_(kBytes),
      mismatches_(kP2pCopiesPerRound + 1),
      host_sent_(kBytes, HostMemory::Pinned, -1),
      host_received_(kBytes, HostMemory::Pinned, -1) {
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(outgoing_.get(), kBytes, kSeed + device, stream_.get()));
  if (peer >= 0) GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(expected_from_peer_.get(), kBytes, kSeed + peer, stream_.get()));
  GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(host_sent_.get(), outgoing_.get(), kBytes, cudaMemcpyDeviceToHost, stream_.get()));
  stream_.synchronize();
}

void InterconnectLoad::run(const void* peer_outgoing, Clock::time_point deadline, const std::atomic<bool>& stop,
                           InterconnectRecord& record, std::mutex& mutex) {
  GPUBENCH_CUDA_CHECK(cudaSetDevice(device_));
  const cudaStream_t stream = stream_.get();
  const auto started = Clock::now();
  while (Clock::now() < deadline && !stop) {
    GPUBENCH_CUDA_CHECK(cudaMemsetAsync(mismatches_.get(), 0, mismatches_.bytes(), stream));
    // Each receiving buffer is cleared first, so a copy that did not happen cannot pass on the last one's bytes.
    const int p2p = peer_outgoing != nullptr ? kP2pCopiesPerRound : 0;
    for (int c = 0; c < p2p; ++c) {
      GPUBENCH_CUDA_CHECK(cudaMemsetAsync(incoming_.get(), 0, kBytes, stream));
      GPUBENCH_CUDA_CHECK(cudaMemcpyPeerAsync(incoming_.get(), device_, peer_outgoing, peer_, kBytes, stream));
      GPUBENCH_CUDA_CHECK(kernels::count_byte_mismatches(incoming_.get(), expected_from_peer_.get(), kBytes, mismatches_.get() + c, stream));
    }
    GPUBENCH_CUDA_CHECK(cudaMemsetAsync(from_host_.get(), 0, kBytes, stream));
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(from_host_.get(), host_sent_.get(), kBytes, cudaMemcpyHostToDevice, stream));
    GPUBENCH_CUDA_CHECK(kernels::count_byte_mismatches(from_host_.get(), outgoing_.get(), kBytes, mismatches_.get() + kP2pCopiesPerRound, stream));
    std::memset(host_received_.get(), 0, kBytes);
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(host_received_.get(), outgoing_.get(), kBytes, cudaMemcpyDeviceToHost, stream));
    unsigned long long wrong[kP2pCopiesPerRound + 1] = {};
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(wrong, mismatches_.get(), sizeof wrong, cudaMemcpyDeviceToHost, stream));
    stream_.synchronize();
    const bool host_copy_wrong = std::memcmp(host_received_.get(), host_sent_.get(), kBytes) != 0;
    std::lock_guard<std::mutex> lock(mutex);
    for (int c = 0; c < p2p; ++c) record.p2p_mismatches += wrong[c] != 0;
    record.p2p_copies += p2p;
    record.p2p_bytes += double(p2p) * kBytes;
    record.pcie_mismatches += (wrong[kP2pCopiesPerRound] != 0) + host_copy_wrong;
    record.pcie_copies += 2;
    record.pcie_bytes += 2.0 * kBytes;
    record.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  }
}

InterconnectPlan plan_interconnect(const std::vector<int>& devices) {
  InterconnectPlan plan;
  for (std::size_t g = 0; g < devices.size(); ++g) {
    const int device = devices[g];
    const int peer = devices[(g + 1) % devices.size()];
    std::string why_not;
    if (devices.size() < 2) {
      why_not = "one GPU in the run, no peer to copy from";
    } else {
      auto access = std::make_unique<PeerAccess>(device, peer);
      if (access->enabled()) {
        plan.access.push_back(std::move(access));
      } else {
        why_not = access->why_not();
      }
    }
    plan.p2p_skipped.push_back(why_not);
    GPUBENCH_CUDA_CHECK(cudaSetDevice(device));
    plan.loads.push_back(std::make_unique<InterconnectLoad>(device, why_not.empty() ? peer : -1));
  }
  return plan;
}

}  // namespace gpubench
