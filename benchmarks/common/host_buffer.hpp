#pragma once
// Host memory for host<->device copies: pageable, or pinned (page-locked with cudaHostRegister), and in both
// cases placed on a chosen NUMA node with mbind when the node is known. libnuma is not assumed: the mbind
// system call is made directly. The pages are mapped, placed and pinned before any timing starts.
#include <linux/mempolicy.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "benchmarks/common/cuda_check.hpp"
#include "kernels/random_fill.cuh"

namespace gpubench {

enum class HostMemory { Pinned, Pageable };

inline const char* host_memory_name(HostMemory kind) { return kind == HostMemory::Pinned ? "pinned" : "pageable"; }

class HostBuffer {
 public:
  // `numa_node` < 0 leaves placement to the kernel's default policy (first touch). A failed mbind is not
  // an error (containers often forbid it): the buffer is used where it lands and placement() says why.
  HostBuffer(std::size_t bytes, HostMemory kind, int numa_node) : bytes_(bytes), kind_(kind), numa_node_(numa_node) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    mapped_bytes_ = (bytes == 0 ? page : (bytes + page - 1) / page * page);
    void* data = mmap(nullptr, mapped_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (data == MAP_FAILED) {
      throw std::runtime_error("mmap of " + std::to_string(mapped_bytes_) + " bytes of host memory failed: " +
                               std::strerror(errno));
    }
    data_ = static_cast<unsigned char*>(data);
    try {
      placement_ = numa_node < 0 ? "default policy (GPU's NUMA node unknown)" : bind_to_node(numa_node);
      // Pinning faults every page in, so they land under the policy set above.
      if (kind == HostMemory::Pinned) GPUBENCH_CUDA_CHECK(cudaHostRegister(data_, mapped_bytes_, cudaHostRegisterPortable));
    } catch (...) {
      munmap(data_, mapped_bytes_);
      throw;
    }
  }
  ~HostBuffer() {
    if (kind_ == HostMemory::Pinned) cudaHostUnregister(data_);
    munmap(data_, mapped_bytes_);
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  unsigned char* get() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  HostMemory kind() const { return kind_; }
  int numa_node() const { return numa_node_; }  // as asked for; placement() says where the pages went
  // "node 1", "default policy (...)" or "mbind failed: ... (default policy)": for the benchmark's params.
  const std::string& placement() const { return placement_; }

  // Fills the buffer with random bytes (a hash of seed and position). This also touches every page, so a
  // pageable buffer has no page faults left for the timed copies.
  void fill_random(std::uint64_t seed) {
    const std::size_t words = bytes_ / 8;
    for (std::size_t i = 0; i < words; ++i) {
      const std::uint64_t word = kernels::mix64(seed ^ (i * 0x9FB21C651E98DF25ull));
      std::memcpy(data_ + 8 * i, &word, 8);
    }
    for (std::size_t i = 8 * words; i < bytes_; ++i) data_[i] = static_cast<unsigned char>(kernels::mix64(seed + i));
  }

 private:
  std::string bind_to_node(int node) {
    constexpr std::size_t kBitsPerWord = 8 * sizeof(unsigned long);
    std::vector<unsigned long> mask(static_cast<std::size_t>(node) / kBitsPerWord + 1, 0);
    mask[static_cast<std::size_t>(node) / kBitsPerWord] |= 1ul << (static_cast<std::size_t>(node) % kBitsPerWord);
    // The kernel reads maxnode - 1 bits of the mask, hence the + 1 (libnuma passes the same).
    const unsigned long max_node = mask.size() * kBitsPerWord + 1;
    if (syscall(SYS_mbind, data_, mapped_bytes_, MPOL_BIND, mask.data(), max_node, 0) != 0) {
      return std::string("mbind failed: ") + std::strerror(errno) + " (default policy)";
    }
    return "node " + std::to_string(node);
  }

  unsigned char* data_ = nullptr;
  std::size_t bytes_;
  std::size_t mapped_bytes_ = 0;
  HostMemory kind_;
  int numa_node_;
  std::string placement_;
};

}  // namespace gpubench
