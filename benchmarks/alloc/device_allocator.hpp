#pragma once
// The two allocators the alloc family compares, behind one interface, on the current GPU: cudaMalloc/cudaFree,
// and the stream-ordered allocator (cudaMallocFromPoolAsync/cudaFreeAsync) on a memory pool of its own, whose
// release threshold is the largest there is, so that freed memory stays cached in the pool for the next
// allocation instead of going back to the driver at the next synchronisation. The device's default pool is left
// alone; the pool is trimmed to nothing and destroyed with the allocator, which leaves the GPU as it was found.
#include <cstddef>
#include <cstdint>
#include <limits>

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/device_buffer.hpp"

namespace gpubench {

enum class AllocatorKind { CudaMalloc, StreamOrdered };

inline const char* allocator_name(AllocatorKind kind) {
  return kind == AllocatorKind::CudaMalloc ? "cuda_malloc" : "malloc_async";
}

inline const char* allocator_description(AllocatorKind kind) {
  return kind == AllocatorKind::CudaMalloc
             ? "cudaMalloc / cudaFree"
             : "cudaMallocFromPoolAsync / cudaFreeAsync on a pool of its own, release threshold UINT64_MAX "
               "(freed memory stays cached in the pool)";
}

// Whether the current GPU supports memory pools (the stream-ordered allocator).
inline bool memory_pools_supported() {
  int device = 0;
  int supported = 0;
  GPUBENCH_CUDA_CHECK(cudaGetDevice(&device));
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device));
  return supported != 0;
}

class DeviceAllocator {
 public:
  explicit DeviceAllocator(AllocatorKind kind) : kind_(kind) {
    if (kind != AllocatorKind::StreamOrdered) return;
    int device = 0;
    GPUBENCH_CUDA_CHECK(cudaGetDevice(&device));
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    GPUBENCH_CUDA_CHECK(cudaMemPoolCreate(&pool_, &props));
    std::uint64_t keep_everything = std::numeric_limits<std::uint64_t>::max();
    GPUBENCH_CUDA_CHECK(cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &keep_everything));
  }
  // Whatever was allocated must have been released before.
  ~DeviceAllocator() {
    if (pool_ == nullptr) return;
    cudaStreamSynchronize(stream_.get());  // the releases done, so that trimming can hand all back
    cudaMemPoolTrimTo(pool_, 0);
    cudaMemPoolDestroy(pool_);
  }
  DeviceAllocator(const DeviceAllocator&) = delete;
  DeviceAllocator& operator=(const DeviceAllocator&) = delete;

  AllocatorKind kind() const { return kind_; }

  // A block of `bytes`, or null when the allocator is out of memory. An out-of-memory failure is not sticky: the
  // error is cleared (cudaGetLastError) and the context stays usable. Any other error throws.
  void* allocate(std::size_t bytes) {
    void* block = nullptr;
    const cudaError_t status = kind_ == AllocatorKind::CudaMalloc
                                   ? cudaMalloc(&block, bytes)
                                   : cudaMallocFromPoolAsync(&block, bytes, pool_, stream_.get());
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      return nullptr;
    }
    if (status != cudaSuccess) throw CudaError(allocate_call(), status, __FILE__, __LINE__);
    return block;
  }

  void release(void* block) {
    if (kind_ == AllocatorKind::CudaMalloc) {
      GPUBENCH_CUDA_CHECK(cudaFree(block));
    } else {
      GPUBENCH_CUDA_CHECK(cudaFreeAsync(block, stream_.get()));
    }
  }

  // For destructors, which must not throw: a release whose error is dropped.
  void release_unchecked(void* block) noexcept {
    if (kind_ == AllocatorKind::CudaMalloc) {
      cudaFree(block);
    } else {
      cudaFreeAsync(block, stream_.get());
    }
  }

  // Waits until every release has taken effect (a stream-ordered one only does in stream order).
  void synchronize() const { stream_.synchronize(); }

  // Whether a block of `bytes` can be allocated now; what was allocated is released at once.
  bool can_allocate(std::size_t bytes) {
    void* block = allocate(bytes);
    if (block == nullptr) return false;
    release(block);
    synchronize();
    return true;
  }

  // The bytes the pool holds from the driver (0 for cudaMalloc): memory cudaMemGetInfo counts as used.
  std::size_t pool_reserved_bytes() const {
    if (pool_ == nullptr) return 0;
    std::uint64_t reserved = 0;
    GPUBENCH_CUDA_CHECK(cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrReservedMemCurrent, &reserved));
    return static_cast<std::size_t>(reserved);
  }

  // Of the pool's reserved bytes, those no live block uses (0 for cudaMalloc): what it can give without growing.
  std::size_t pool_cached_bytes() const {
    if (pool_ == nullptr) return 0;
    std::uint64_t used = 0;
    GPUBENCH_CUDA_CHECK(cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrUsedMemCurrent, &used));
    return pool_reserved_bytes() - static_cast<std::size_t>(used);
  }

 private:
  const char* allocate_call() const {
    return kind_ == AllocatorKind::CudaMalloc ? "cudaMalloc" : "cudaMallocFromPoolAsync";
  }

  AllocatorKind kind_;
  CudaStream stream_;
  cudaMemPool_t pool_ = nullptr;
};

}  // namespace gpubench
