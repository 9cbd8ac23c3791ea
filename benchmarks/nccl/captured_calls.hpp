#pragma once
// Calls of a collective captured into CUDA Graphs, one graph per GPU, and replayed: stream capture on every local
// GPU's stream around the grouped calls, as nccl-tests -G does. A replay launches every GPU's graph; what it saves
// against plain calls is the host's work of enqueuing each NCCL call.
#include <string>
#include <vector>

#include "benchmarks/common/cuda_graph.hpp"
#include "benchmarks/nccl/collective_bench.hpp"
#include "benchmarks/nccl/nccl_communicators.hpp"

namespace gpubench {

// "" when this NCCL can be captured into a graph (2.9 and later), otherwise why not.
std::string capture_unsupported_reason();

class CapturedCalls {
 public:
  // Captures `calls` calls of `bench` on every local rank of `communicators` (which must outlive this; nothing
  // runs yet) and instantiates the graphs. Destroy it before the communicators are destroyed or aborted: NCCL's
  // resources for a captured call live until its graph goes.
  CapturedCalls(CollectiveBench& bench, const NcclCommunicators& communicators, int calls);

  // Launches every GPU's graph, without waiting.
  void launch() const;

 private:
  struct Replay {
    int device;
    cudaStream_t stream;
    CudaGraphExec exec;
  };
  std::vector<Replay> replays_;
};

}  // namespace gpubench
