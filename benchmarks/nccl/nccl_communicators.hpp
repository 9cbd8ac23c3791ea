#pragma once
// The NCCL communicators of this process, one per local GPU, each with a stream of its own: every GPU of the
// world in one process (ncclCommInitAll), or this process's one GPU in a world of processes (ncclCommInitRank).
// NVLink SHARP (NVLS) is kept off unless the operator set NCCL_NVLS_ENABLE: NVLink multicast can take a shared
// host's GPUs out of service.
#include <nccl.h>

#include <memory>
#include <vector>

#include "benchmarks/common/device_buffer.hpp"

namespace gpubench {

class NcclCommunicators {
 public:
  struct LocalRank {
    int device = 0;  // CUDA device index
    int rank = 0;    // rank in the world
    ncclComm_t comm = nullptr;
    std::unique_ptr<CudaStream> stream;  // created on `device`
  };

  // Throws NcclError (refused() when NCCL rejects its NCCL_* settings) or CudaError.
  static std::unique_ptr<NcclCommunicators> for_devices(const std::vector<int>& devices);
  static std::unique_ptr<NcclCommunicators> for_rank(const ncclUniqueId& id, int world_size, int rank, int device);

  // Destroys the communicators (after abort(): nothing left to destroy).
  ~NcclCommunicators();
  NcclCommunicators(const NcclCommunicators&) = delete;
  NcclCommunicators& operator=(const NcclCommunicators&) = delete;

  // Ends every local communicator at once, for use after an error: kernels still waiting on a peer return, so
  // the buffers they use can be freed. The communicators cannot be used afterwards.
  void abort() noexcept;
  bool aborted() const { return aborted_; }

  const std::vector<LocalRank>& local_ranks() const { return local_ranks_; }
  int world_size() const { return world_size_; }

 private:
  NcclCommunicators() = default;
  void add_local_rank(int device, ncclComm_t comm);

  std::vector<LocalRank> local_ranks_;
  int world_size_ = 0;
  bool aborted_ = false;
};

}  // namespace gpubench
