#pragma once
// The overlap family's compute: every word of an array put through the same number of rounds of an integer hash,
// out of place. Its running time grows with the rounds and barely touches memory, so it can be sized to last as
// long as a copy without contending with the copy for DRAM; and a host reference recomputes any word exactly.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

namespace gpubench::kernels {

// One round: xor-shift and multiply (a bijection of the word), then the round's number added, so that the
// compiler cannot fold the rounds into one.
__host__ __device__ inline std::uint32_t hash_round(std::uint32_t word, std::uint32_t round) {
  word ^= word >> 16;
  word *= 0x7FEB352Du;
  word ^= word >> 15;
  return word + round;
}

// What the kernel writes for `word` after `rounds` rounds (rounds numbered 0, 1, ...): the host's reference.
__host__ __device__ inline std::uint32_t hash_rounds(std::uint32_t word, std::uint32_t rounds) {
  for (std::uint32_t round = 0; round < rounds; ++round) word = hash_round(word, round);
  return word;
}

// output[i] = hash_rounds(input[i], rounds) for i in [0, count). input and output must not overlap.
cudaError_t launch_hash_rounds(const std::uint32_t* input, std::uint32_t* output, std::size_t count,
                               std::uint32_t rounds, cudaStream_t stream);

}  // namespace gpubench::kernels
