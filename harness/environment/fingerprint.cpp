#include "harness/environment/fingerprint.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nccl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <string_view>

#include "benchmarks/common/nvml_library.hpp"
#include "benchmarks/common/topology.hpp"

extern char** environ;

namespace gpubench {
namespace {

using nlohmann::json;

std::string cuda_version_text(int code) { return std::to_string(code / 1000) + "." + std::to_string((code % 1000) / 10); }

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

json host_description() {
  json host;
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) == 0) host["hostname"] = name;
  utsname uts{};
  if (uname(&uts) == 0) {
    host["kernel"] = std::string(uts.sysname) + " " + uts.release;
    host["machine"] = uts.machine;
  }
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      host["cpu_model"] = line.substr(line.find(':') + 2);
      break;
    }
  }
  host["logical_cpus"] = sysconf(_SC_NPROCESSORS_ONLN);
  host["memory_bytes"] = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  return host;
}

json versions(const NvmlLibrary* nvml) {
  json out;
  int code = 0;
  if (cudaDriverGetVersion(&code) == cudaSuccess && code > 0) out["cuda_driver"] = cuda_version_text(code);
  if (cudaRuntimeGetVersion(&code) == cudaSuccess) out["cuda_runtime"] = cuda_version_text(code);
  int major = 0, minor = 0, patch = 0;
  if (cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
      cublasGetProperty(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
      cublasGetProperty(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS) {
    out["cublas"] = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  }
  int nccl = 0;
  if (ncclGetVersion(&nccl) == ncclSuccess) out["nccl"] = format_nccl_version(nccl);
  if (nvml != nullptr) {
    char text[96] = {};
    if (nvml->nvmlSystemGetDriverVersion_ && nvml->nvmlSystemGetDriverVersion_(text, sizeof text) == NVML_SUCCESS) out["driver"] = text;
    if (nvml->nvmlSystemGetNVMLVersion_ && nvml->nvmlSystemGetNVMLVersion_(text, sizeof text) == NVML_SUCCESS) out["nvml"] = text;
  }
  return out;
}

json nvml_gpu_state(const NvmlLibrary& nvml, nvmlDevice_t dev) {
  json out;
  char text[96] = {};
  if (nvml.nvmlDeviceGetSerial_ && nvml.nvmlDeviceGetSerial_(dev, text, sizeof text) == NVML_SUCCESS) out["serial"] = text;
  unsigned int value = 0;
  json pcie;
  if (nvml.nvmlDeviceGetCurrPcieLinkGeneration_ && nvml.nvmlDeviceGetCurrPcieLinkGeneration_(dev, &value) == NVML_SUCCESS) pcie["current_generation"] = value;
  if (nvml.nvmlDeviceGetCurrPcieLinkWidth_ && nvml.nvmlDeviceGetCurrPcieLinkWidth_(dev, &value) == NVML_SUCCESS) pcie["current_width"] = value;
  if (nvml.nvmlDeviceGetMaxPcieLinkGeneration_ && nvml.nvmlDeviceGetMaxPcieLinkGeneration_(dev, &value) == NVML_SUCCESS) pcie["max_generation"] = value;
  if (nvml.nvmlDeviceGetMaxPcieLinkWidth_ && nvml.nvmlDeviceGetMaxPcieLinkWidth_(dev, &value) == NVML_SUCCESS) pcie["max_width"] = value;
  if (!pcie.empty()) out["pcie"] = pcie;
  json clocks;
  const std::pair<const char*, nvmlClockType_t> kinds[] = {{"sm", NVML_CLOCK_SM}, {"memory", NVML_CLOCK_MEM}};
  for (const auto& [name, type] : kinds) {
    if (nvml.nvmlDeviceGetClockInfo_ && nvml.nvmlDeviceGetClockInfo_(dev, type, &value) == NVML_SUCCESS) clocks[std::string(name) + "_mhz"] = value;
    if (nvml.nvmlDeviceGetMaxClockInfo_ && nvml.nvmlDeviceGetMaxClockInfo_(dev, type, &value) == NVML_SUCCESS) clocks[std::string(name) + "_max_mhz"] = value;
  }
  if (!clocks.empty()) out["clocks"] = clocks;
  if (nvml.nvmlDeviceGetEnforcedPowerLimit_ && nvml.nvmlDeviceGetEnforcedPowerLimit_(dev, &value) == NVML_SUCCESS) out["power_limit_w"] = value / 1000.0;
  nvmlEnableState_t current{}, pending{};
  if (nvml.nvmlDeviceGetEccMode_ && nvml.nvmlDeviceGetEccMode_(dev, &current, &pending) == NVML_SUCCESS) {
    out["ecc_enabled"] = current == NVML_FEATURE_ENABLED;
  }
  nvmlEnableState_t persistence{};
  if (nvml.nvmlDeviceGetPersistenceMode_ && nvml.nvmlDeviceGetPersistenceMode_(dev, &persistence) == NVML_SUCCESS) {
    out["persistence_mode"] = persistence == NVML_FEATURE_ENABLED;
  }
  if (nvml.nvmlDeviceGetTemperature_ && nvml.nvmlDeviceGetTemperature_(dev, NVML_TEMPERATURE_GPU, &value) == NVML_SUCCESS) out["temperature_c"] = value;
  return out;
}

json describe_gpu(int index, const NvmlLibrary* nvml, std::map<int, nvmlDevice_t>& nvml_handles) {
  json gpu;
  gpu["index"] = index;
  cudaDeviceProp props{};
  const cudaError_t status = cudaGetDeviceProperties(&props, index);
  if (status != cudaSuccess) {
    gpu["error"] = std::string("cudaGetDeviceProperties: ") + cudaGetErrorString(status);
    return gpu;
  }
  gpu["name"] = props.name;
  gpu["uuid"] = format_gpu_uuid(props.uuid.bytes);
  gpu["compute_capability"] = std::to_string(props.major) + "." + std::to_string(props.minor);
  gpu["sm_count"] = props.multiProcessorCount;
  gpu["memory_bytes"] = props.totalGlobalMem;
  gpu["l2_bytes"] = props.l2CacheSize;
  gpu["memory_bus_width_bits"] = props.memoryBusWidth;
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, index) == cudaSuccess) gpu["memory_clock_peak_mhz"] = khz / 1000;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, index) == cudaSuccess) gpu["sm_clock_peak_mhz"] = khz / 1000;
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, index) == cudaSuccess) {
    std::string sysfs_id = bus_id;  // sysfs spells it in lower case: 0000:3b:00.0
    for (char& c : sysfs_id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    gpu["pci_bus_id"] = sysfs_id;
    const std::string node = read_first_line("/sys/bus/pci/devices/" + sysfs_id + "/numa_node");
    if (!node.empty()) gpu["numa_node"] = std::stoi(node);
    if (nvml != nullptr) {
      if (nvmlDevice_t dev = nvml->device_by_pci_bus_id(bus_id)) {
        nvml_handles[index] = dev;
        gpu.update(nvml_gpu_state(*nvml, dev));
      }
    }
  }
  return gpu;
}

json describe_topology(const std::vector<int>& devices, const NvmlLibrary* nvml,
                       const std::map<int, nvmlDevice_t>& handles) {
  json matrix = json::array();
  json links = json::array();
  for (std::size_t i = 0; i < devices.size(); ++i) {
    json row = json::array();
    for (std::size_t j = 0; j < devices.size(); ++j) {
      int can = 0;
      if (i != j) cudaDeviceCanAccessPeer(&can, devices[i], devices[j]);
      row.push_back(i == j ? true : can != 0);
      if (i >= j) continue;
      json link{{"a", devices[i]}, {"b", devices[j]}};
      const auto a = handles.find(devices[i]);
      const auto b = handles.find(devices[j]);
      if (nvml != nullptr && a != handles.end() && b != handles.end()) {
        const LinkDescription described = describe_link(*nvml, a->second, b->second);
        link["kind"] = described.kind;
        if (described.nvlinks > 0) link["nvlinks"] = described.nvlinks;
        if (described.via_nvswitch) link["via"] = "nvswitch";
      }
      int rank = 0;
      if (cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, devices[i], devices[j]) == cudaSuccess) {
        link["cuda_p2p_performance_rank"] = rank;
      }
      links.push_back(link);
    }
    matrix.push_back(row);
  }
  return json{{"devices", devices}, {"p2p_access", matrix}, {"links", links}};
}

}  // namespace

std::string format_nccl_version(int code) {
  if (code >= 10000) return std::to_string(code / 10000) + "." + std::to_string((code % 10000) / 100) + "." + std::to_string(code % 100);
  return std::to_string(code / 1000) + "." + std::to_string((code % 1000) / 100) + "." + std::to_string(code % 100);
}

bool library_loadable(const char* library) {
  void* handle = dlopen(library, RTLD_LAZY | RTLD_LOCAL);
  if (handle == nullptr) return false;
  dlclose(handle);
  return true;
}

std::string cuda_error_text(const std::string& cuda_error, bool libcuda_loadable, bool nvml_loadable) {
  if (libcuda_loadable || nvml_loadable) return cuda_error;
  return "no NVIDIA driver found (libcuda.so.1 / libnvidia-ml.so.1 not loadable): install the NVIDIA driver, or run "
         "where one is (in a container, the NVIDIA Container Toolkit mounts it: --gpus all)";
}

CudaStatus probe_cuda() {
  CudaStatus status;
  const cudaError_t error = cudaGetDeviceCount(&status.device_count);
  if (error != cudaSuccess) {
    status.device_count = 0;
    status.error = cuda_error_text(std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error),
                                   library_loadable("libcuda.so.1"), library_loadable("libnvidia-ml.so.1"));
  } else if (status.device_count == 0) {
    status.error = "CUDA reports no devices";
  }
  return status;
}

json result_changing_variables() {
  static constexpr std::string_view prefixes[] = {"NCCL_", "CUDA_", "CUBLAS", "NVIDIA_TF32_OVERRIDE", "OMP_NUM_THREADS",
                                                  "GPUBENCH_", "UCX_", "OMPI_MCA_"};
  json vars = json::object();
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view name = text.substr(0, eq);
    for (std::string_view prefix : prefixes) {
      if (name.substr(0, prefix.size()) == prefix) {
        vars[std::string(name)] = std::string(text.substr(eq + 1));
        break;
      }
    }
  }
  return vars;
}

std::string format_gpu_uuid(const char (&bytes)[16]) {
  const auto byte = [&bytes](int i) { return static_cast<unsigned>(static_cast<unsigned char>(bytes[i])); };
  char text[64];
  std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", byte(0), byte(1),
                byte(2), byte(3), byte(4), byte(5), byte(6), byte(7), byte(8), byte(9), byte(10), byte(11), byte(12), byte(13),
                byte(14), byte(15));
  return text;
}

json collect_environment(const NvmlLibrary* nvml, const std::string& nvml_error, const std::vector<int>& devices) {
  json env;
  env["host"] = host_description();
  env["versions"] = versions(nvml);
  const CudaStatus cuda = probe_cuda();
  env["cuda_status"] = cuda.error.empty() ? "ok" : cuda.error;
  env["nvml_status"] = nvml != nullptr ? "ok" : nvml_error;
  std::vector<int> selected = devices;
  if (selected.empty()) {
    for (int i = 0; i < cuda.device_count; ++i) selected.push_back(i);
  }
  json gpus = json::array();
  std::map<int, nvmlDevice_t> handles;
  if (cuda.error.empty()) {
    for (int index : selected) gpus.push_back(describe_gpu(index, nvml, handles));
    env["topology"] = describe_topology(selected, nvml, handles);
  }
  env["gpus"] = gpus;
  env["variables"] = result_changing_variables();
  return env;
}

}  // namespace gpubench
