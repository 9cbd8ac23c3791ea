#include "benchmarks/nccl/nccl_communicators.hpp"

#include <cstdlib>

#include "benchmarks/nccl/nccl_check.hpp"

namespace gpubench {
namespace {

void keep_nvls_off_unless_set() {
  const char* value = std::getenv("NCCL_NVLS_ENABLE");
  if (value == nullptr || *value == '\0') setenv("NCCL_NVLS_ENABLE", "0", 1);
}

}  // namespace

std::unique_ptr<NcclCommunicators> NcclCommunicators::for_devices(const std::vector<int>& devices) {
  keep_nvls_off_unless_set();
  std::vector<ncclComm_t> comms(devices.size(), nullptr);
  GPUBENCH_NCCL_CHECK(ncclCommInitAll(comms.data(), static_cast<int>(devices.size()), devices.data()), nullptr);
  std::unique_ptr<NcclCommunicators> communicators(new NcclCommunicators());
  communicators->world_size_ = static_cast<int>(devices.size());
  // From here the destructor owns every communicator, including those not yet added when a step below throws.
  try {
    for (std::size_t i = 0; i < devices.size(); ++i) {
      communicators->add_local_rank(devices[i], comms[i]);
      comms[i] = nullptr;
    }
  } catch (...) {
    for (ncclComm_t comm : comms) {
      if (comm != nullptr) ncclCommDestroy(comm);
    }
    throw;
  }
  return communicators;
}

std::unique_ptr<NcclCommunicators> NcclCommunicators::for_rank(const ncclUniqueId& id, int world_size, int rank, int device) {
  keep_nvls_off_unless_set();
  GPUBENCH_CUDA_CHECK(cudaSetDevice(device));
  ncclComm_t comm = nullptr;
  GPUBENCH_NCCL_CHECK(ncclCommInitRank(&comm, world_size, id, rank), nullptr);
  std::unique_ptr<NcclCommunicators> communicators(new NcclCommunicators());
  communicators->world_size_ = world_size;
  try {
    communicators->add_local_rank(device, comm);
  } catch (...) {
    ncclCommDestroy(comm);
    throw;
  }
  return communicators;
}

void NcclCommunicators::add_local_rank(int device, ncclComm_t comm) {
  LocalRank local;
  local.device = device;
  GPUBENCH_NCCL_CHECK(ncclCommUserRank(comm, &local.rank), comm);
  GPUBENCH_CUDA_CHECK(cudaSetDevice(device));
  local.stream = std::make_unique<CudaStream>();
  local.comm = comm;
  local_ranks_.push_back(std::move(local));
}

NcclCommunicators::~NcclCommunicators() {
  if (aborted_) return;
  for (LocalRank& local : local_ranks_) {
    cudaSetDevice(local.device);
    ncclCommDestroy(local.comm);
  }
}

void NcclCommunicators::abort() noexcept {
  if (aborted_) return;
  aborted_ = true;
  for (LocalRank& local : local_ranks_) {
    cudaSetDevice(local.device);
    ncclCommAbort(local.comm);
  }
}

}  // namespace gpubench
