#pragma once
// Owning handles for a CUDA Graph and its executable form, so an exception part-way through a benchmark
// destroys them (and never leaves a stream stuck in capture mode).
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

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

  // A stream to capture, and the GPU it belongs to.
  struct Lane {
    int device = 0;
    cudaStream_t stream = nullptr;
  };

  // Records into one graph per lane what `enqueue()` puts on the lanes' streams, captured all at once: for work
  // that spans GPUs and must be enqueued on all of them together, such as an NCCL call grouped over them.
  template <class Enqueue>
  static std::vector<CudaGraph> capture_together(const std::vector<Lane>& lanes, Enqueue&& enqueue) {
    std::size_t begun = 0;
    try {
      for (; begun < lanes.size(); ++begun) {
        GPUBENCH_CUDA_CHECK(cudaSetDevice(lanes[begun].device));
        GPUBENCH_CUDA_CHECK(cudaStreamBeginCapture(lanes[begun].stream, cudaStreamCaptureModeGlobal));
      }
      enqueue();
    } catch (...) {
      end_captures(lanes, begun);  // the partial graphs are discarded
      cudaGetLastError();          // the exception in flight is the error to report: leave none for the next check
      throw;
    }
    // Every stream leaves capture mode, and every graph made is owned, even when one lane's capture failed.
    std::vector<CudaGraph> graphs = end_captures(lanes, lanes.size());
    if (graphs.size() != lanes.size()) {
      throw std::runtime_error("stream capture failed on " + std::to_string(lanes.size() - graphs.size()) + " of " +
                               std::to_string(lanes.size()) + " GPUs: " + cudaGetErrorString(cudaGetLastError()));
    }
    return graphs;
  }

  cudaGraph_t get() const { return graph_.get(); }

 private:
  explicit CudaGraph(cudaGraph_t graph) : graph_(graph) {}

  // Ends the capture of the first `count` lanes; returns the graphs that ended well.
  static std::vector<CudaGraph> end_captures(const std::vector<Lane>& lanes, std::size_t count) {
    std::vector<CudaGraph> graphs;
    for (std::size_t i = 0; i < count; ++i) {
      cudaGraph_t graph = nullptr;
      cudaSetDevice(lanes[i].device);
      if (cudaStreamEndCapture(lanes[i].stream, &graph) == cudaSuccess && graph != nullptr) graphs.push_back(CudaGraph(graph));
    }
    return graphs;
  }

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
