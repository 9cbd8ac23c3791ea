#pragma once
// Host buffers kept for reuse within a process, pinned and pageable. Google Benchmark constructs a benchmark
// several times in each repetition, and making a buffer anew each time cost more than the copies it timed:
// pinning takes 0.4-0.8 s a GiB on an H200 VM node, and a fresh 1 GiB pageable buffer's page faults made each
// 1 GiB pageable figure take 4-6 s of the quick suite (measured). Reuse changes nothing that is timed: a copy's
// buffer is touched before its copies are timed either way, so no page fault is ever timed. A buffer whose lease
// ends goes back to the pool, to serve the next request of the same size, kind and NUMA node; the idle buffers
// never add up to more than the most this process has had in use at once, so the pool holds no more than the
// benchmarks already needed. Callers must not rely on what a buffer holds when they take it. One thread only.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "benchmarks/common/host_buffer.hpp"

namespace gpubench {

class HostBufferPool;

// Returns a buffer to its pool.
struct HostBufferRelease {
  HostBufferPool* pool = nullptr;
  void operator()(HostBuffer* buffer) const;
};

using HostBufferLease = std::unique_ptr<HostBuffer, HostBufferRelease>;

class HostBufferPool {
 public:
  HostBufferPool() = default;  // gpubench-micro's is in ProcessResources (process_resources.hpp)
  HostBufferPool(const HostBufferPool&) = delete;
  HostBufferPool& operator=(const HostBufferPool&) = delete;

  // An idle buffer of `bytes` and `kind` on `numa_node` if there is one, else a new one.
  HostBufferLease take(std::size_t bytes, HostMemory kind, int numa_node) {
    const auto match = std::find_if(idle_.begin(), idle_.end(), [&](const std::unique_ptr<HostBuffer>& idle) {
      return idle->numa_node() == numa_node && idle->bytes() == bytes && idle->kind() == kind;
    });
    std::unique_ptr<HostBuffer> buffer;
    if (match != idle_.end()) {
      buffer = std::move(*match);
      idle_.erase(match);
      idle_bytes_ -= bytes;
    } else {
      buffer = std::make_unique<HostBuffer>(bytes, kind, numa_node);
    }
    in_use_bytes_ += bytes;
    most_in_use_bytes_ = std::max(most_in_use_bytes_, in_use_bytes_);
    return HostBufferLease(buffer.release(), HostBufferRelease{this});
  }

  std::size_t idle_bytes() const { return idle_bytes_; }

 private:
  friend struct HostBufferRelease;

  // Keeps the buffer, then frees the smallest idle ones (the cheapest to make again) while the idle buffers
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

inline void HostBufferRelease::operator()(HostBuffer* buffer) const { pool->give_back(buffer); }

}  // namespace gpubench
