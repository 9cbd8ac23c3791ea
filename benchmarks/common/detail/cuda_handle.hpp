#pragma once
// An owned CUDA handle. Every CUDA handle type (cudaEvent_t, cudaGraph_t, ...) is a pointer to an opaque struct,
// so std::unique_ptr owns it, with the CUDA call that destroys it as its deleter: moved, never copied, destroyed
// once. The RAII classes beside this folder (cuda_event.hpp, cuda_graph.hpp) keep theirs in one.
#include <memory>
#include <type_traits>

namespace gpubench::detail {

template <auto destroy>
struct CudaHandleDestroyer {
  template <class Handle>
  void operator()(Handle handle) const {
    destroy(handle);
  }
};

template <class Handle, auto destroy>
using CudaHandle = std::unique_ptr<std::remove_pointer_t<Handle>, CudaHandleDestroyer<destroy>>;

}  // namespace gpubench::detail
