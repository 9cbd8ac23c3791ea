#include "harness/mpi/rank_identity.hpp"

#include <cuda_runtime.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>

#include "benchmarks/common/cuda_check.hpp"
#include "harness/runner/run_record.hpp"

namespace gpubench {
namespace {

// As nvidia-smi and NVML write it: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
std::string format_uuid(const cudaUUID_t& uuid) {
  std::string text = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(uuid.bytes[i]));
    text += hex;
  }
  return text;
}

}  // namespace

nlohmann::json describe_rank(int rank, int local_rank, int cuda_device) {
  cudaDeviceProp props{};
  GPUBENCH_CUDA_CHECK(cudaGetDeviceProperties(&props, cuda_device));
  char bus_id[32] = {};
  GPUBENCH_CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, cuda_device));
  std::string pci_bus_id = bus_id;
  for (char& c : pci_bus_id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return {{"rank", rank},
          {"local_rank", local_rank},
          {"host", host_name()},
          {"cuda_device", cuda_device},
          {"gpu_name", props.name},
          {"gpu_uuid", format_uuid(props.uuid)},
          {"pci_bus_id", pci_bus_id}};
}

}  // namespace gpubench
