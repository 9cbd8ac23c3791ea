#pragma once
// How much the shared-memory kernel (kernels/shared_read.cuh) reads, and what each thread's sink word must hold.
// Plain C++, usable by CPU tests.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpubench {

// Rounds per launch: with every SM full, about a millisecond at an H200's shared-memory peak.
inline constexpr std::uint32_t kSharedReadRounds = 2048;

inline std::size_t shared_read_bytes_per_launch(std::size_t threads, std::uint32_t rounds, int vectors_per_thread) {
  return threads * rounds * static_cast<std::size_t>(vectors_per_thread) * 16;
}

// The sink word of thread `thread_in_block`: `rounds` times the sum, modulo 2^32, of the words of the tile vectors
// it loads (thread_in_block + k * block for k below vectors_per_thread). `tile_words` is the tile as 32-bit words.
inline std::uint32_t expected_shared_sink_word(const std::vector<std::uint32_t>& tile_words, int thread_in_block,
                                               int block, int vectors_per_thread, std::uint32_t rounds) {
  std::uint32_t sum = 0;
  for (int k = 0; k < vectors_per_thread; ++k) {
    const std::size_t vector = static_cast<std::size_t>(thread_in_block) + static_cast<std::size_t>(k) * block;
    for (std::size_t word = 0; word < 4; ++word) sum += tile_words[vector * 4 + word];
  }
  return sum * rounds;
}

}  // namespace gpubench
