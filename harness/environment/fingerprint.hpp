#pragma once
// The environment fingerprint of a run: software versions, every GPU's identity and state, the topology
// between GPUs, the host, and the environment variables that change results. Whatever cannot be read is
// left out and the reason recorded, so the fingerprint works with no GPU and no driver.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gpubench {

class NvmlLibrary;

struct CudaStatus {
  int device_count = 0;
  std::string error;  // empty when CUDA works and sees at least one GPU
};

// Asks the CUDA runtime how many GPUs it sees; the error text is what CUDA said when it sees none, or where neither
// the driver's CUDA library nor NVML can be loaded, that no NVIDIA driver was found (CUDA itself then says its driver
// is "insufficient", which invites an upgrade of a driver that is not there).
CudaStatus probe_cuda();

// What to say of a CUDA error: `cuda_error` as CUDA put it, or where neither library is loadable, that no driver was
// found.
std::string cuda_error_text(const std::string& cuda_error, bool libcuda_loadable, bool nvml_loadable);

// Whether the dynamic loader finds and loads `library` ("libcuda.so.1").
bool library_loadable(const char* library);

// nvml may be null; nvml_error then says why. devices selects the GPUs to describe (empty: all).
nlohmann::json collect_environment(const NvmlLibrary* nvml, const std::string& nvml_error, const std::vector<int>& devices);

// "GPU-8c6f1a2b-...": the 16 bytes of CUDA's cudaDeviceProp::uuid as nvidia-smi spells a GPU's UUID.
std::string format_gpu_uuid(const char (&bytes)[16]);

// Environment variables that change results: NCCL_*, CUDA_*, CUBLAS*, NVIDIA_TF32_OVERRIDE, OMP_NUM_THREADS ...
nlohmann::json result_changing_variables();

// "2.28.3" from NCCL's integer version code (22803) and the older 4-digit scheme (2708 = 2.7.8).
std::string format_nccl_version(int code);

}  // namespace gpubench
