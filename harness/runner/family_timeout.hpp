#pragma once
// How long a family variant may run on the GPUs of a run. The catalogue's timeout (benchmarks/catalogue.cpp) was
// sized on nodes of one or two GPUs; with more, a family's work grows with what it measures one after another: its
// GPUs (memory/.../gpuN, n/2 times the work of two) or its ordered pairs (p2p/.../gpuA-gpuB, n(n-1)/2 times), and
// its limit grows alike. A family that measures all its GPUs at once (NCCL's ids name no GPU) keeps the catalogue's.
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "benchmarks/catalogue.hpp"

namespace gpubench {

// `benchmarks`: the variant's benchmark names as gpubench-micro lists them; `gpus`: how many the run selected.
std::chrono::seconds family_timeout(const FamilySpec& family, const std::vector<std::string>& benchmarks, std::size_t gpus);

}  // namespace gpubench
