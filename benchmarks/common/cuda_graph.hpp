#pragma once
// Owning handles for a CUDA Graph and its executable form, so an exception part-way through a benchmark
// destroys them (and never leaves a stream stuck in capture mode).
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/detail/cuda_handle.hpp"

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
    cudaGraph_t graph = nullptr;
    GPUBENCH_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    return CudaGraph(graph);
  }

  cudaGraph_t get() const { return graph_.get(); }

 private:
  explicit CudaGraph(cudaGraph_t graph) : graph_(graph) {}

  detail::CudaHandle<cudaGraph_t, cudaGraphDestroy> graph_;
};

class CudaGraphExec {
 public:
  // cudaGraphInstantiate, and nothing else: gpubench-micro times this constructor (launch/graph_instantiate).
  explicit CudaGraphExec(const CudaGraph& graph) : exec_(instantiate(graph)) {}

  void launch(cudaStream_t stream) const { GPUBENCH_CUDA_CHECK(cudaGraphLaunch(exec_.get(), stream)); }

 private:
  static cudaGraphExec_t instantiate(const CudaGraph& graph) {
    cudaGraphExec_t exec = nullptr;
    GPUBENCH_CUDA_CHECK(cudaGraphInstantiate(&exec, graph.get(), 0));
    return exec;
  }

  detail::CudaHandle<cudaGraphExec_t, cudaGraphExecDestroy> exec_;
};

}  // namespace gpubench
