#pragma once
// The host's steady_clock around some work, for host-side costs (launch calls, synchronisation): CUDA events
// would see only the GPU's share of them.
#include <chrono>

namespace gpubench {

template <class Work>
double host_seconds(Work&& work) {
  const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace gpubench
