#include "benchmarks/nccl/captured_calls.hpp"

#include <nccl.h>

#include "benchmarks/common/cuda_check.hpp"

namespace gpubench {
namespace {

constexpr int kFirstCapturableNccl = 20900;  // 2.9.0, as ncclGetVersion codes it

}  // namespace

std::string capture_unsupported_reason() {
  int version = 0;
  if (ncclGetVersion(&version) != ncclSuccess) return "ncclGetVersion failed";
  if (version >= kFirstCapturableNccl) return "";
  // Before 2.9 NCCL coded its version as major x 1000 + minor x 100 + patch.
  return "NCCL " + std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 100) + "." +
         std::to_string(version % 100) + " cannot be captured into a CUDA Graph (2.9 and later can)";
}

CapturedCalls::CapturedCalls(CollectiveBench& bench, const NcclCommunicators& communicators, int calls) {
  std::vector<CudaGraph::Lane> lanes;
  for (const NcclCommunicators::LocalRank& local : communicators.local_ranks()) {
    lanes.push_back({local.device, local.stream->get()});
  }
  const std::vector<CudaGraph> graphs = CudaGraph::capture_together(lanes, [&] { bench.enqueue_calls(calls); });
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(lanes[i].device));
    replays_.push_back({lanes[i].device, lanes[i].stream, CudaGraphExec(graphs[i])});
  }
}

void CapturedCalls::launch() const {
  for (const Replay& replay : replays_) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(replay.device));
    replay.exec.launch(replay.stream);
  }
}

}  // namespace gpubench
