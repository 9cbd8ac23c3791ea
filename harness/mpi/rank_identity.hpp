#pragma once
// Who a rank is, for environment.ranks[] of gpubench-mpi's results: its node and its GPU, so that a figure of
// many nodes can be traced to each machine and card that made it.
#include <nlohmann/json.hpp>

#include <string>

namespace gpubench {

// {rank, local_rank, host, cuda_device, gpu_name, gpu_uuid, pci_bus_id}. Throws CudaError.
nlohmann::json describe_rank(int rank, int local_rank, int cuda_device);


}  // namespace gpubench
