#pragma once
// What gpubench-micro's benchmarks share for the whole process: owned by main, reached through
// BenchmarkContext::resources. Google Benchmark runs a benchmark's body several times in each repetition, so
// what is slow to make (pinned host memory) or must stay the same from one repetition to the next (a tuning
// choice) is kept here. Benchmarks run one at a time, on one thread.
#include "benchmarks/common/detail/objects_by_type.hpp"
#include "benchmarks/common/host_buffer_pool.hpp"

namespace gpubench {

class ProcessResources {
 public:
  ProcessResources() = default;
  ProcessResources(const ProcessResources&) = delete;
  ProcessResources& operator=(const ProcessResources&) = delete;

  HostBufferPool& host_buffer_pool() { return host_buffer_pool_; }

  // A family's own state for the whole process, one object of each type T (a type of the family's own),
  // default-constructed on first use.
  template <class T>
  T& family_state() {
    return family_states_.get_or_make<T>();
  }

 private:
  HostBufferPool host_buffer_pool_;  // declared first: outlives whatever a family keeps
  detail::ObjectsByType family_states_;
};

}  // namespace gpubench
