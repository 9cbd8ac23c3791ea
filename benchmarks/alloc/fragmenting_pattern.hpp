#pragma once
// A pattern of allocations and frees that leaves free memory in holes: blocks of two sizes, large and small in
// turn, then the large ones freed in an order other than the one they came in (from both ends inwards), so that
// the small ones, still held, keep the holes apart.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace gpubench {

struct FragmentingPattern {
  std::vector<std::size_t> block_bytes;  // allocated in this order
  std::vector<std::size_t> freed;        // indices into block_bytes, freed in this order; the rest stay held

  std::size_t allocated_bytes() const {
    std::size_t total = 0;
    for (std::size_t bytes : block_bytes) total += bytes;
    return total;
  }
  std::size_t freed_bytes() const {
    std::size_t total = 0;
    for (std::size_t index : freed) total += block_bytes[index];
    return total;
  }
};

// Large blocks of a 32nd of `budget` (in whole `granularity`s, at least one) and small blocks of an eighth of that
// plus 64 KiB (no whole number of granules, so they share pages), in turn, for as long as they fit in `budget`.
inline FragmentingPattern fragmenting_pattern(std::size_t budget, std::size_t granularity) {
  const std::size_t large = std::max<std::size_t>(budget / 32 / granularity, 1) * granularity;
  const std::size_t small = large / 8 + 64 * 1024;
  FragmentingPattern pattern;
  std::size_t used = 0;
  std::vector<std::size_t> large_blocks;
  for (bool next_large = true;; next_large = !next_large) {
    const std::size_t bytes = next_large ? large : small;
    if (used + bytes > budget) break;
    if (next_large) large_blocks.push_back(pattern.block_bytes.size());
    pattern.block_bytes.push_back(bytes);
    used += bytes;
  }
  for (std::size_t front = 0, back = large_blocks.size(); front < back;) {
    pattern.freed.push_back(large_blocks[--back]);
    if (front < back) pattern.freed.push_back(large_blocks[front++]);
  }
  return pattern;
}

}  // namespace gpubench
