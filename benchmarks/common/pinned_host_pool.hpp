#pragma once
// Pinned host buffers kept for reuse within a process. Pinning is slow (0.4-0.8 s a GiB on an H200 VM node,
// measured) and Google Benchmark constructs a benchmark several times in each repetition, so the pcie family
// spent most of its time pinning memory rather than copying it. A buffer whose lease ends goes back to the
// pool, to serve the next request of the same size on the same NUMA node; the idle buffers never add up to
// more than the most this process has had in use at once, so the pool holds no more than the benchmarks
// already needed. Callers must not rely on what a buffer holds when they take it. One thread only.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "benchmarks/common/host_buffer.hpp"

namespace gpubench {

class PinnedHostPool;

// Returns a pooled buffer to its pool, or frees a buffer of its own.
struct HostBufferRelease {
  PinnedHostPool* pool = nullptr;
  void operator()(HostBuffer* buffer) const;
};

using HostBufferLease = std::unique_ptr<HostBuffer, HostBufferRelease>;

class PinnedHostPool {
 public:
  PinnedHostPool() = default;  // gpubench-micro's is in ProcessResources (process_resources.hpp)
  PinnedHostPool(const PinnedHostPool&) = delete;
  PinnedHostPool& operator=(const PinnedHostPool&) = delete;

  // An idle pinned buffer of `bytes` on `numa_node` if there is one, else a newly pinned one.
  HostBufferLease take(std::size_t bytes, int numa_node) {
    const auto match = std::find_if(idle_.begin(), idle_.end(), [&](const std::unique_ptr<HostBuffer>& idle) {
      return idle->numa_node() == numa_node && idle->bytes() == bytes;
    });
    std::unique_ptr<HostBuffer> buffer;
    if (match != idle_.end()) {
      buffer = std::move(*match);
      idle_.erase(match);
      idle_bytes_ -= bytes;
    } else {
      buffer = std::make_unique<HostBuffer>(bytes, HostMemory::Pinned, numa_node);
    }
    in_use_bytes_ += bytes;
    most_in_use_bytes_ = std::max(most_in_use_bytes_, in_use_bytes_);
    return HostBufferLease(buffer.release(), HostBufferRelease{this});
  }

  std::size_t idle_bytes() const { return idle_bytes_; }

 private:
  friend struct HostBufferRelease;

  // Keeps the buffer, then frees the smallest idle ones (the cheapest to pin again) while the idle buffers
  // add up to more than the most that was ever in use at once.
  void give_back(HostBuffer* returned) {
    in_use_bytes_ -= returned->bytes();
    idle_bytes_ += returned->bytes();
    idle_.emplace_back(returned);
    while (idle_bytes_ > most_in_use_bytes_) {
      const auto smallest = std::min_element(idle_.begin(), idle_.end(),
                                             [](const auto& a, const auto& b) { return a->bytes() < b->bytes(); });
      idle_bytes_ -= (*smallest)->bytes();
      idle_.erase(smallest);
    }
  }

  std::vector<std::unique_ptr<HostBuffer>> idle_;  // oldest first
  std::size_t idle_bytes_ = 0;
  std::size_t in_use_bytes_ = 0;
  std::size_t most_in_use_bytes_ = 0;
};

inline void HostBufferRelease::operator()(HostBuffer* buffer) const {
  if (pool) {
    pool->give_back(buffer);
  } else {
    delete buffer;
  }
}

// Pinned memory from `pool`; pageable memory of its own (mapped and touched anew each time, as a program's
// own pageable buffers are).
inline HostBufferLease lease_host_buffer(PinnedHostPool& pool, std::size_t bytes, HostMemory kind, int numa_node) {
  if (kind == HostMemory::Pinned) return pool.take(bytes, numa_node);
  return HostBufferLease(new HostBuffer(bytes, kind, numa_node), HostBufferRelease{});
}

}  // namespace gpubench
