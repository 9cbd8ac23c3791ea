#pragma once
// The largest block an allocator can still give, found by binary search on whether an allocation succeeds, and
// how it compares with the free memory there is.
#include <cstddef>

namespace gpubench {

// The largest multiple of `granularity` no greater than `bound` for which `try_allocate(bytes)` succeeds, or 0
// when not even `granularity` does. `try_allocate` allocates, frees what it got and says whether it could; a size
// that fails is taken to fail for every larger size. The bound is tried first: where nothing is fragmented, it is
// the answer, found with one allocation.
template <class TryAllocate>
std::size_t largest_allocatable(std::size_t bound, std::size_t granularity, TryAllocate&& try_allocate) {
  const std::size_t granules = bound / granularity;
  if (granules == 0) return 0;
  if (try_allocate(granules * granularity)) return granules * granularity;
  std::size_t known_good = 0;       // in granules; 0 needs no allocation
  std::size_t known_bad = granules;  // in granules
  while (known_bad - known_good > 1) {
    const std::size_t middle = known_good + (known_bad - known_good) / 2;
    if (try_allocate(middle * granularity)) {
      known_good = middle;
    } else {
      known_bad = middle;
    }
  }
  return known_good * granularity;
}

// The memory a program could still allocate after a pattern's frees: what the driver reports free
// (cudaMemGetInfo) and what the allocator keeps cached for reuse (a pool's reserved bytes that no live block uses).
inline std::size_t unused_bytes(std::size_t driver_free, std::size_t allocator_cached) {
  return driver_free + allocator_cached;
}

// The largest block, in percent of the unused memory: 100 where holes cost nothing.
inline double largest_block_share_percent(std::size_t largest, std::size_t unused) {
  return unused == 0 ? 0.0 : 100.0 * static_cast<double>(largest) / static_cast<double>(unused);
}

}  // namespace gpubench
