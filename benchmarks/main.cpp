// gpubench-micro: an ordinary Google Benchmark executable; every --benchmark_* flag works.
// Which GPUs: GPUBENCH_DEVICES=0,2 (default: all visible). Which suite: GPUBENCH_SUITE=quick|full (default full).
// More GEMM shapes: GPUBENCH_GEMM_SHAPES=M,N,K:M,N,K (benchmarks/gemm/gemm_shape_list.hpp).
// --gpubench_catalogue, alone, prints the family catalogue as JSON instead.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "benchmarks/catalogue.hpp"
#include "benchmarks/catalogue_json.hpp"
#include "benchmarks/common/context.hpp"
#include "benchmarks/common/device_selection.hpp"
#include "benchmarks/common/family_registration.hpp"
#include "benchmarks/common/nvml_library.hpp"
#include "benchmarks/common/process_resources.hpp"

namespace {

std::string env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpubench;
  // Our own flag is taken out before Google Benchmark sees argv, which would reject it as unrecognized.
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--gpubench_catalogue") != 0) continue;
    if (argc != 2) {
      std::fprintf(stderr, "gpubench-micro: --gpubench_catalogue takes no other argument\n");
      return 2;
    }
    std::printf("%s\n", catalogue_json(family_catalogue()).dump(2).c_str());
    return 0;
  }
  std::vector<RegisterFamily> registrations;
  try {
    registrations = registrations_for(family_catalogue(), self_registered_families());
  } catch (const std::logic_error& error) {
    std::fprintf(stderr, "gpubench-micro: %s\n", error.what());
    return 2;
  }

  ProcessResources resources;  // declared before the context that points to it, so it outlives every benchmark
  BenchmarkContext context;
  context.resources = &resources;
  const std::string suite = env_or("GPUBENCH_SUITE", "full");
  if (suite != "quick" && suite != "full") {
    std::fprintf(stderr, "gpubench-micro: GPUBENCH_SUITE='%s' must be quick or full\n", suite.c_str());
    return 2;
  }
  context.suite = suite == "quick" ? Suite::Quick : Suite::Full;

  int visible = 0;
  const cudaError_t status = cudaGetDeviceCount(&visible);
  if (status != cudaSuccess || visible == 0) {
    context.no_gpu_reason = status != cudaSuccess ? std::string("no usable GPU: ") + cudaGetErrorString(status)
                                                  : std::string("no usable GPU: CUDA sees no device");
    visible = 0;
  }
  std::vector<int> indices;
  try {
    indices = parse_device_list(env_or("GPUBENCH_DEVICES", ""), visible > 0 ? visible : -1);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "gpubench-micro: GPUBENCH_DEVICES: %s\n", error.what());
    return 2;
  }
  if (indices.empty()) indices.push_back(0);  // keep the benchmark names stable on machines with no GPU

  std::string nvml_missing;
  std::unique_ptr<NvmlLibrary> nvml = NvmlLibrary::load(&nvml_missing);
  context.nvml = nvml.get();
  for (int index : indices) {
    const bool have_gpu = nvml && context.no_gpu_reason.empty();
    context.devices.push_back({index, have_gpu ? nvml->device_for_cuda_index(index) : nullptr});
  }

  try {
    for (RegisterFamily register_family : registrations) register_family(context);
  } catch (const std::invalid_argument& error) {  // a family's own setting (GPUBENCH_GEMM_SHAPES) is bad
    std::fprintf(stderr, "gpubench-micro: %s\n", error.what());
    return 2;
  }

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::AddCustomContext("gpubench_suite", suite);
  if (!context.no_gpu_reason.empty()) benchmark::AddCustomContext("gpubench_no_gpu", context.no_gpu_reason);
  if (!nvml) benchmark::AddCustomContext("gpubench_nvml", nvml_missing);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
