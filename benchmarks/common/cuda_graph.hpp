#pragma once
// Owning handles for a CUDA Graph and its executable form, so an exception part-way through a benchmark
// destroys them (and never leaves a stream stuck in capture mode).
#include <utility>

#include "benchmarks/common/cuda_check.hpp"

namespace gpubench {

class CudaGraph {
 public:
  // Records into a graph what `enqueue()` puts on `stream` (stream capture); nothing runs until it is launched.
  template <class Enqueue>
  static CudaGraph capture(cudaStream_t stream, Enqueue&& enqueue) {
    GPUBENCH_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    try {
      enqueue();
    } catch (...) {
      cudaGraph_t partial = nullptr;
      cudaStreamEndCapture(stream, &partial);  // ends capture mode; the partial graph is discarded
      if (partial != nullptr) cudaGraphDestroy(partial);
      cudaGetLastError();  // the exception in flight is the error to report: leave none for the next check
      throw;
    }
    CudaGraph graph;
    GPUBENCH_CUDA_CHECK(cudaStreamEndCapture(stream, &graph.graph_));
    return graph;
  }
  ~CudaGraph() {
    if (graph_ != nullptr) cudaGraphDestroy(graph_);
  }
  CudaGraph(CudaGraph&& other) noexcept : graph_(std::exchange(other.graph_, nullptr)) {}
  CudaGraph(const CudaGraph&) = delete;
  CudaGraph& operator=(const CudaGraph&) = delete;
  CudaGraph& operator=(CudaGraph&&) = delete;

  cudaGraph_t get() const { return graph_; }

 private:
  CudaGraph() = default;
  cudaGraph_t graph_ = nullptr;
};

class CudaGraphExec {
 public:
  explicit CudaGraphExec(const CudaGraph& graph) { GPUBENCH_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph.get(), 0)); }
  ~CudaGraphExec() {
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
  }
  CudaGraphExec(CudaGraphExec&& other) noexcept : exec_(std::exchange(other.exec_, nullptr)) {}
  CudaGraphExec(const CudaGraphExec&) = delete;
  CudaGraphExec& operator=(const CudaGraphExec&) = delete;
  CudaGraphExec& operator=(CudaGraphExec&&) = delete;

  void launch(cudaStream_t stream) const { GPUBENCH_CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace gpubench
