// gpubench env: the environment fingerprint, as far as it can be read (also with no GPU or driver).
#include <iostream>
#include <memory>

#include "benchmarks/common/nvml_library.hpp"
#include "harness/cli/cli_support.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/device_list_option.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/environment/fingerprint.hpp"

namespace gpubench {
namespace {

struct EnvArguments {
  bool json = false;
  std::string devices;
};

void print_readable(const nlohmann::json& env, std::ostream& out) {
  const nlohmann::json& v = env.at("versions");
  out << "host     " << env["host"].value("hostname", "?") << "  (" << env["host"].value("kernel", "?") << ", "
      << env["host"].value("cpu_model", "?") << ")\n";
  out << "driver   " << v.value("driver", "?") << "   CUDA driver " << v.value("cuda_driver", "?") << "   runtime "
      << v.value("cuda_runtime", "?") << "   cuBLAS " << v.value("cublas", "?") << "   NCCL " << v.value("nccl", "?") << "\n";
  out << "CUDA     " << env.value("cuda_status", "?") << "\nNVML     " << env.value("nvml_status", "?") << "\n";
  for (const nlohmann::json& gpu : env.at("gpus")) {
    out << "GPU " << gpu.value("index", -1) << "    " << gpu.value("name", "?") << "  cc " << gpu.value("compute_capability", "?")
        << "  " << gpu.value("sm_count", 0) << " SMs  " << gpu.value("memory_bytes", 0.0) / (1 << 30) << " GiB  "
        << gpu.value("uuid", "") << "\n";
    if (gpu.contains("pcie")) {
      const nlohmann::json& p = gpu["pcie"];
      out << "         PCIe gen " << p.value("current_generation", 0) << " x" << p.value("current_width", 0) << " (max gen "
          << p.value("max_generation", 0) << " x" << p.value("max_width", 0) << ")  NUMA node " << gpu.value("numa_node", -1) << "\n";
    }
  }
  if (env.contains("topology")) {
    for (const nlohmann::json& link : env["topology"]["links"]) {
      out << "link     GPU" << link.value("a", -1) << " <-> GPU" << link.value("b", -1) << "  " << link.value("kind", "?") << "\n";
    }
  }
  for (const auto& [name, value] : env.at("variables").items()) out << "env      " << name << "=" << value.get<std::string>() << "\n";
}

int env_command(const EnvArguments& args) {
  std::string nvml_error;
  const std::unique_ptr<NvmlLibrary> nvml = NvmlLibrary::load(&nvml_error);
  const CudaStatus cuda = probe_cuda();
  const std::vector<int> devices = cuda.error.empty() ? selected_devices(args.devices, cuda.device_count) : std::vector<int>{};
  if (!cuda.error.empty() && !args.devices.empty()) {
    std::cerr << "gpubench env: --devices " << args.devices << " not applied: no usable GPU to select from\n";
  }
  const nlohmann::json env = collect_environment(nvml.get(), nvml_error, devices);
  if (args.json) {
    std::cout << env.dump(2) << "\n";
  } else {
    print_readable(env, std::cout);
  }
  return 0;
}

}  // namespace

void add_env_command(CLI::App& app, CommandState& state) {
  auto args = std::make_shared<EnvArguments>();
  CLI::App* env = app.add_subcommand("env", "print the environment fingerprint (versions, GPUs, topology, variables)");
  env->add_flag("--json", args->json, "print the JSON kept in results documents");
  env->add_option("--devices", args->devices, "GPUs to describe (default: all)")->check(kDeviceListSyntax);
  env->callback([args, &state] { state.exit_code = env_command(*args); });
}

}  // namespace gpubench
