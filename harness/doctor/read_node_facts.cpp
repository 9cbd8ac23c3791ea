#include "harness/doctor/read_node_facts.hpp"

#include <cuda_runtime.h>
#include <unistd.h>

#include <cctype>
#include <fstream>
#include <map>
#include <stdexcept>
#include <utility>

#include "benchmarks/common/cpu_list.hpp"
#include "benchmarks/common/nvml_library.hpp"
#include "benchmarks/common/topology.hpp"
#include "harness/doctor/host_facts.hpp"
#include "harness/doctor/pcie_aer.hpp"
#include "harness/doctor/pcie_under_load.hpp"
#include "harness/doctor/read_kernel_log.hpp"

namespace gpubench {
namespace {

const char* const kPciDevices = "/sys/bus/pci/devices";

std::string not_in_driver(const char* call) { return std::string(call) + ": not in this driver's NVML"; }

// Calls an NVML getter through `call(fn, &value)`; the value is read as NvmlType and kept as T.
template <typename T, typename NvmlType = T, typename Function, typename Call>
Reading<T> read_nvml(const NvmlLibrary& nvml, const char* name, Function* fn, Call call) {
  if (fn == nullptr) return {std::nullopt, not_in_driver(name)};
  NvmlType value{};
  const nvmlReturn_t status = call(fn, &value);
  if (status != NVML_SUCCESS) return {std::nullopt, nvml.describe(name, status)};
  return {static_cast<T>(value), ""};
}

Reading<EccMode> read_ecc_mode(const NvmlLibrary& nvml, nvmlDevice_t dev) {
  if (nvml.nvmlDeviceGetEccMode_ == nullptr) return {std::nullopt, not_in_driver("nvmlDeviceGetEccMode")};
  nvmlEnableState_t current{};
  nvmlEnableState_t pending{};
  const nvmlReturn_t status = nvml.nvmlDeviceGetEccMode_(dev, &current, &pending);
  if (status != NVML_SUCCESS) return {std::nullopt, nvml.describe("nvmlDeviceGetEccMode", status)};
  return {EccMode{current == NVML_FEATURE_ENABLED, pending == NVML_FEATURE_ENABLED}, ""};
}

Reading<std::uint64_t> read_ecc_count(const NvmlLibrary& nvml, nvmlDevice_t dev, nvmlMemoryErrorType_t type, nvmlEccCounterType_t counter) {
  return read_nvml<std::uint64_t, unsigned long long>(nvml, "nvmlDeviceGetTotalEccErrors", nvml.nvmlDeviceGetTotalEccErrors_,
                                                      [&](auto fn, unsigned long long* v) { return fn(dev, type, counter, v); });
}

Reading<RemappedRows> read_remapped_rows(const NvmlLibrary& nvml, nvmlDevice_t dev) {
  if (nvml.nvmlDeviceGetRemappedRows_ == nullptr) return {std::nullopt, not_in_driver("nvmlDeviceGetRemappedRows")};
  unsigned correctable = 0, uncorrectable = 0, pending = 0, failed = 0;
  const nvmlReturn_t status = nvml.nvmlDeviceGetRemappedRows_(dev, &correctable, &uncorrectable, &pending, &failed);
  if (status != NVML_SUCCESS) return {std::nullopt, nvml.describe("nvmlDeviceGetRemappedRows", status)};
  return {RemappedRows{correctable, uncorrectable, pending != 0, failed != 0}, ""};
}

Reading<RetiredPages> read_retired_pages(const NvmlLibrary& nvml, nvmlDevice_t dev) {
  if (nvml.nvmlDeviceGetRetiredPages_ == nullptr) return {std::nullopt, not_in_driver("nvmlDeviceGetRetiredPages")};
  if (nvml.nvmlDeviceGetRetiredPagesPendingStatus_ == nullptr) return {std::nullopt, not_in_driver("nvmlDeviceGetRetiredPagesPendingStatus")};
  RetiredPages pages;
  const std::pair<nvmlPageRetirementCause_t, unsigned*> causes[] = {
      {NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS, &pages.single_bit},
      {NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR, &pages.double_bit}};
  for (const auto& [cause, count] : causes) {
    // A zero-sized buffer asks for the count only: NVML answers INSUFFICIENT_SIZE with the count when pages exist.
    unsigned long long address = 0;
    *count = 0;
    const nvmlReturn_t status = nvml.nvmlDeviceGetRetiredPages_(dev, cause, count, &address);
    if (status != NVML_SUCCESS && status != NVML_ERROR_INSUFFICIENT_SIZE) return {std::nullopt, nvml.describe("nvmlDeviceGetRetiredPages", status)};
  }
  nvmlEnableState_t pending{};
  const nvmlReturn_t status = nvml.nvmlDeviceGetRetiredPagesPendingStatus_(dev, &pending);
  if (status != NVML_SUCCESS) return {std::nullopt, nvml.describe("nvmlDeviceGetRetiredPagesPendingStatus", status)};
  pages.pending = pending == NVML_FEATURE_ENABLED;
  return {pages, ""};
}

// For the getters of the form fn(device, unsigned*).
template <typename Function>
Reading<unsigned> read_unsigned(const NvmlLibrary& nvml, const char* name, Function* fn, nvmlDevice_t dev) {
  return read_nvml<unsigned>(nvml, name, fn, [dev](auto f, unsigned* v) { return f(dev, v); });
}

Reading<PcieLink> read_pcie_link(const NvmlLibrary& nvml, nvmlDevice_t dev) {
  const Reading<unsigned> values[] = {
      read_unsigned(nvml, "nvmlDeviceGetCurrPcieLinkGeneration", nvml.nvmlDeviceGetCurrPcieLinkGeneration_, dev),
      read_unsigned(nvml, "nvmlDeviceGetCurrPcieLinkWidth", nvml.nvmlDeviceGetCurrPcieLinkWidth_, dev),
      read_unsigned(nvml, "nvmlDeviceGetMaxPcieLinkGeneration", nvml.nvmlDeviceGetMaxPcieLinkGeneration_, dev),
      read_unsigned(nvml, "nvmlDeviceGetMaxPcieLinkWidth", nvml.nvmlDeviceGetMaxPcieLinkWidth_, dev)};
  for (const Reading<unsigned>& value : values) {
    if (!value.value) return {std::nullopt, value.why_not};
  }
  return {PcieLink{*values[0].value, *values[1].value, *values[2].value, *values[3].value}, ""};
}

Reading<NvLinkCounters> read_link_errors(const NvmlLibrary& nvml, nvmlDevice_t dev, unsigned link) {
  if (nvml.nvmlDeviceGetNvLinkErrorCounter_ == nullptr) return {std::nullopt, not_in_driver("nvmlDeviceGetNvLinkErrorCounter")};
  NvLinkCounters counters;
  const std::pair<nvmlNvLinkErrorCounter_t, std::optional<std::uint64_t>*> wanted[] = {
      {NVML_NVLINK_ERROR_DL_REPLAY, &counters.replay},
      {NVML_NVLINK_ERROR_DL_RECOVERY, &counters.recovery},
      {NVML_NVLINK_ERROR_DL_CRC_FLIT, &counters.crc_flit},
      {NVML_NVLINK_ERROR_DL_CRC_DATA, &counters.crc_data}};
  std::string failure;
  bool any = false;
  for (const auto& [counter, slot] : wanted) {
    unsigned long long value = 0;
    const nvmlReturn_t status = nvml.nvmlDeviceGetNvLinkErrorCounter_(dev, link, counter, &value);
    if (status == NVML_SUCCESS) {
      *slot = value;
      any = true;
    } else if (failure.empty()) {
      failure = nvml.describe("nvmlDeviceGetNvLinkErrorCounter", status);
    }
  }
  if (!any) return {std::nullopt, failure};
  return {counters, ""};
}

std::optional<unsigned> unsigned_field(const nvmlFieldValue_t& field) {
  if (field.nvmlReturn != NVML_SUCCESS) return std::nullopt;
  switch (field.valueType) {
    case NVML_VALUE_TYPE_UNSIGNED_INT: return field.value.uiVal;
    case NVML_VALUE_TYPE_UNSIGNED_LONG: return static_cast<unsigned>(field.value.ulVal);
    case NVML_VALUE_TYPE_UNSIGNED_LONG_LONG: return static_cast<unsigned>(field.value.ullVal);
    default: return std::nullopt;
  }
}

// The per-link field (NVML_FI_DEV_NVLINK_GET_SPEED, newer drivers), else the speed common to every active link
// (NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON, which older drivers offer).
Reading<unsigned> read_link_speed(const NvmlLibrary& nvml, nvmlDevice_t dev, unsigned link) {
  if (nvml.nvmlDeviceGetFieldValues_ == nullptr) return {std::nullopt, not_in_driver("nvmlDeviceGetFieldValues")};
  nvmlFieldValue_t fields[2] = {};
  fields[0].fieldId = NVML_FI_DEV_NVLINK_GET_SPEED;
  fields[0].scopeId = link;
  fields[1].fieldId = NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON;
  const nvmlReturn_t status = nvml.nvmlDeviceGetFieldValues_(dev, 2, fields);
  if (status != NVML_SUCCESS) return {std::nullopt, nvml.describe("nvmlDeviceGetFieldValues", status)};
  for (const nvmlFieldValue_t& field : fields) {
    if (const std::optional<unsigned> speed = unsigned_field(field); speed && *speed > 0) return {*speed, ""};
  }
  return {std::nullopt, nvml.describe("nvmlDeviceGetFieldValues(NVLink speed)", fields[0].nvmlReturn)};
}

Reading<std::vector<NvLinkFacts>> read_nvlinks(const NvmlLibrary& nvml, nvmlDevice_t dev) {
  if (nvml.nvmlDeviceGetNvLinkState_ == nullptr) return {std::nullopt, not_in_driver("nvmlDeviceGetNvLinkState")};
  std::vector<NvLinkFacts> links;
  std::string failure;
  for (unsigned link = 0; link < NVML_NVLINK_MAX_LINKS; ++link) {
    nvmlEnableState_t state{};
    const nvmlReturn_t status = nvml.nvmlDeviceGetNvLinkState_(dev, link, &state);
    if (status == NVML_SUCCESS) {
      NvLinkFacts facts;
      facts.link = link;
      facts.active = state == NVML_FEATURE_ENABLED;
      if (facts.active) {
        facts.errors = read_link_errors(nvml, dev, link);
        facts.speed_mb_per_s = read_link_speed(nvml, dev, link);
      }
      links.push_back(facts);
    } else if (status != NVML_ERROR_NOT_SUPPORTED && status != NVML_ERROR_INVALID_ARGUMENT && failure.empty()) {
      failure = nvml.describe("nvmlDeviceGetNvLinkState", status);  // NOT_SUPPORTED and INVALID_ARGUMENT: no such link
    }
  }
  if (links.empty() && !failure.empty()) return {std::nullopt, failure};
  return {links, ""};
}

Reading<std::vector<GpuProcess>> read_other_processes(const NvmlLibrary& nvml, nvmlDevice_t dev) {
  GpuProcessReading reading = read_gpu_processes(nvml, dev);
  if (!reading.processes) return {std::nullopt, reading.error};
  std::vector<GpuProcess> others;
  for (GpuProcess& process : *reading.processes) {
    if (process.pid != static_cast<unsigned>(getpid())) others.push_back(std::move(process));
  }
  return {others, ""};
}

// For the getters of the form fn(device, char* text, unsigned length).
template <typename Function>
Reading<std::string> read_text(const NvmlLibrary& nvml, const char* name, Function* fn, nvmlDevice_t dev) {
  if (fn == nullptr) return {std::nullopt, not_in_driver(name)};
  char text[64] = {};  // more than NVML asks for a serial (NVML_DEVICE_SERIAL_BUFFER_SIZE, 30) or a VBIOS version (32)
  const nvmlReturn_t status = fn(dev, text, sizeof text);
  if (status != NVML_SUCCESS) return {std::nullopt, nvml.describe(name, status)};
  return {std::string(text), ""};
}

void read_nvml_facts(const NvmlLibrary& nvml, nvmlDevice_t dev, GpuFacts& gpu) {
  gpu.nvml_index = read_unsigned(nvml, "nvmlDeviceGetIndex", nvml.nvmlDeviceGetIndex_, dev);
  gpu.serial = read_text(nvml, "nvmlDeviceGetSerial", nvml.nvmlDeviceGetSerial_, dev).value.value_or("");
  gpu.vbios_version = read_text(nvml, "nvmlDeviceGetVbiosVersion", nvml.nvmlDeviceGetVbiosVersion_, dev);
  const Reading<nvmlEnableState_t> persistence = read_nvml<nvmlEnableState_t>(
      nvml, "nvmlDeviceGetPersistenceMode", nvml.nvmlDeviceGetPersistenceMode_, [dev](auto fn, nvmlEnableState_t* v) { return fn(dev, v); });
  gpu.persistence_mode.why_not = persistence.why_not;
  if (persistence.value) gpu.persistence_mode.value = *persistence.value == NVML_FEATURE_ENABLED;
  gpu.ecc_mode = read_ecc_mode(nvml, dev);
  gpu.ecc_volatile_corrected = read_ecc_count(nvml, dev, NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_VOLATILE_ECC);
  gpu.ecc_volatile_uncorrected = read_ecc_count(nvml, dev, NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC);
  gpu.ecc_aggregate_corrected = read_ecc_count(nvml, dev, NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_AGGREGATE_ECC);
  gpu.ecc_aggregate_uncorrected = read_ecc_count(nvml, dev, NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_AGGREGATE_ECC);
  gpu.retired_pages = read_retired_pages(nvml, dev);
  gpu.remapped_rows = read_remapped_rows(nvml, dev);
  gpu.pcie = read_pcie_link(nvml, dev);
  gpu.pcie_replays = read_unsigned(nvml, "nvmlDeviceGetPcieReplayCounter", nvml.nvmlDeviceGetPcieReplayCounter_, dev);
  gpu.nvlinks = read_nvlinks(nvml, dev);
  gpu.clock_event_reasons = read_nvml<std::uint64_t, unsigned long long>(
      nvml, "nvmlDeviceGetCurrentClocksEventReasons", nvml.nvmlDeviceGetCurrentClocksEventReasons_,
      [dev](auto fn, unsigned long long* v) { return fn(dev, v); });
  gpu.temperature_c = read_nvml<unsigned>(nvml, "nvmlDeviceGetTemperature", nvml.nvmlDeviceGetTemperature_,
                                          [dev](auto fn, unsigned* v) { return fn(dev, NVML_TEMPERATURE_GPU, v); });
  gpu.slowdown_temperature_c = read_nvml<unsigned>(nvml, "nvmlDeviceGetTemperatureThreshold", nvml.nvmlDeviceGetTemperatureThreshold_,
                                                   [dev](auto fn, unsigned* v) { return fn(dev, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN, v); });
  gpu.power_limit_mw = read_unsigned(nvml, "nvmlDeviceGetEnforcedPowerLimit", nvml.nvmlDeviceGetEnforcedPowerLimit_, dev);
  gpu.default_power_limit_mw =
      read_unsigned(nvml, "nvmlDeviceGetPowerManagementDefaultLimit", nvml.nvmlDeviceGetPowerManagementDefaultLimit_, dev);
  gpu.other_processes = read_other_processes(nvml, dev);
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

void read_numa_placement(GpuFacts& gpu) {
  const std::string dir = "/sys/bus/pci/devices/" + gpu.pci_bus_id + "/";
  try {
    gpu.numa_node = std::stoi(first_line(dir + "numa_node"));
  } catch (const std::exception&) {
    gpu.numa_node = -1;
  }
  const std::string cpus = first_line(dir + "local_cpulist");
  if (cpus.empty()) {
    gpu.local_cpus.why_not = dir + "local_cpulist: not readable";
    return;
  }
  try {
    gpu.local_cpus.value = parse_cpu_list(cpus);
  } catch (const std::invalid_argument& error) {
    gpu.local_cpus.why_not = error.what();
  }
}

GpuFacts read_gpu(int index, const NvmlLibrary* nvml, const std::string& nvml_why_not, nvmlDevice_t* handle) {
  GpuFacts gpu;
  gpu.index = index;
  cudaDeviceProp props{};
  if (cudaGetDeviceProperties(&props, index) == cudaSuccess) {
    gpu.name = props.name;
    gpu.uuid = format_gpu_uuid(props.uuid.bytes);
    gpu.memory_bytes = props.totalGlobalMem;
  }
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, index) != cudaSuccess) {
    gpu.nvml_why_not = "CUDA gave no PCI bus id";
    return gpu;
  }
  gpu.pci_bus_id = bus_id;  // sysfs spells it in lower case: 0000:3b:00.0
  for (char& c : gpu.pci_bus_id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  read_numa_placement(gpu);
  gpu.pcie_aer = read_pcie_aer(kPciDevices, gpu.pci_bus_id);
  if (nvml == nullptr) {
    gpu.nvml_why_not = nvml_why_not;
    return gpu;
  }
  *handle = nvml->device_by_pci_bus_id(bus_id);
  if (*handle == nullptr) {
    gpu.nvml_why_not = "nvmlDeviceGetHandleByPciBusId found no device";
    return gpu;
  }
  read_nvml_facts(*nvml, *handle, gpu);
  return gpu;
}

GpuPairFacts read_pair(const NvmlLibrary* nvml, int a, nvmlDevice_t handle_a, int b, nvmlDevice_t handle_b) {
  GpuPairFacts pair;
  pair.a = a;
  pair.b = b;
  if (nvml != nullptr && handle_a != nullptr && handle_b != nullptr) {
    const LinkDescription link = describe_link(*nvml, handle_a, handle_b);
    pair.link_kind = link.kind;
    pair.nvlinks = link.nvlinks;
    pair.via_nvswitch = link.via_nvswitch;
  }
  int a_to_b = 0;
  int b_to_a = 0;
  cudaError_t status = cudaDeviceCanAccessPeer(&a_to_b, a, b);
  if (status == cudaSuccess) status = cudaDeviceCanAccessPeer(&b_to_a, b, a);
  if (status != cudaSuccess) {
    pair.peer_access.why_not = std::string("cudaDeviceCanAccessPeer: ") + cudaGetErrorString(status);
  } else {
    pair.peer_access.value = a_to_b != 0 && b_to_a != 0;
  }
  return pair;
}

bool below_max(const PcieLink& link) { return link.current_generation < link.max_generation || link.current_width < link.max_width; }

Reading<std::string> read_driver_version(const NvmlLibrary* nvml, const std::string& nvml_why_not) {
  if (nvml == nullptr) return {std::nullopt, nvml_why_not};
  if (nvml->nvmlSystemGetDriverVersion_ == nullptr) return {std::nullopt, not_in_driver("nvmlSystemGetDriverVersion")};
  char text[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = {};
  const nvmlReturn_t status = nvml->nvmlSystemGetDriverVersion_(text, sizeof text);
  if (status != NVML_SUCCESS) return {std::nullopt, nvml->describe("nvmlSystemGetDriverVersion", status)};
  return {std::string(text), ""};
}

Reading<unsigned> read_nvml_device_count(const NvmlLibrary* nvml, const std::string& nvml_why_not) {
  if (nvml == nullptr) return {std::nullopt, nvml_why_not};
  return read_nvml<unsigned>(*nvml, "nvmlDeviceGetCount", nvml->nvmlDeviceGetCount_, [](auto fn, unsigned* v) { return fn(v); });
}

}  // namespace

NodeFacts read_node_facts(const NvmlLibrary* nvml, const std::string& nvml_why_not, const CudaStatus& cuda,
                          const std::vector<int>& devices) {
  NodeFacts facts;
  facts.host = read_host_facts();
  facts.xids = read_xid_history();  // needs no GPU: a GPU that fell off the bus is found here
  if (nvml == nullptr) facts.nvml_why_not = nvml_why_not.empty() ? "NVML not loaded" : nvml_why_not;
  facts.driver_version = read_driver_version(nvml, facts.nvml_why_not);
  facts.nvml_device_count = read_nvml_device_count(nvml, facts.nvml_why_not);
  facts.cuda_why_not = cuda.error;
  facts.cuda_device_count = cuda.device_count;
  if (!cuda.error.empty()) return facts;
  // NVML first: clock-event reasons and the process list are read before doctor opens a CUDA context.
  std::map<int, nvmlDevice_t> handles;
  for (int index : devices) {
    nvmlDevice_t handle = nullptr;
    facts.gpus.push_back(read_gpu(index, nvml, facts.nvml_why_not, &handle));
    handles[index] = handle;
  }
  for (std::size_t i = 0; i < devices.size(); ++i) {
    for (std::size_t j = i + 1; j < devices.size(); ++j) {
      facts.pairs.push_back(read_pair(nvml, devices[i], handles[devices[i]], devices[j], handles[devices[j]]));
    }
  }
  for (GpuFacts& gpu : facts.gpus) {
    if (nvml != nullptr && handles[gpu.index] != nullptr && gpu.pcie.value && below_max(*gpu.pcie.value)) {
      gpu.pcie_under_load = read_pcie_link_under_load(*nvml, handles[gpu.index], gpu.index, *gpu.pcie.value);
    }
  }
  return facts;
}

void reread_link_errors(const NvmlLibrary* nvml, NodeFacts& facts) {
  for (GpuFacts& gpu : facts.gpus) {
    if (gpu.pci_bus_id.empty()) continue;
    gpu.pcie_aer = read_pcie_aer(kPciDevices, gpu.pci_bus_id);
    const nvmlDevice_t handle = nvml != nullptr ? nvml->device_by_pci_bus_id(gpu.pci_bus_id) : nullptr;
    if (handle != nullptr) {
      gpu.pcie_replays = read_unsigned(*nvml, "nvmlDeviceGetPcieReplayCounter", nvml->nvmlDeviceGetPcieReplayCounter_, handle);
      gpu.nvlinks = read_nvlinks(*nvml, handle);
    }
  }
}

}  // namespace gpubench
