// gpubench doctor: the health of a GPU node, each finding with a severity and the fix to try. Reads only:
// it never changes a GPU setting.
#include <iostream>
#include <memory>

#include "benchmarks/common/nvml_library.hpp"
#include "harness/cli/cli_support.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/device_list_option.hpp"
#include "harness/cli/duration_text.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/doctor/gpu_identity.hpp"
#include "harness/doctor/health_rules.hpp"
#include "harness/doctor/node_profile.hpp"
#include "harness/doctor/read_node_facts.hpp"
#include "harness/report/console_report.hpp"
#include "harness/report/json_report.hpp"

namespace gpubench {
namespace {

struct DoctorArguments {
  std::string devices;
  bool json = false;
  std::string expect;
  std::string xid_window = "24h";
};

int doctor_command(const DoctorArguments& args) {
  // Both are checked before anything is read: a bad profile is exit 2 whatever the node's state.
  HealthLimits limits;
  try {
    limits.xid_window_s = static_cast<double>(parse_duration(args.xid_window).count());
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--xid-window ") + error.what());
  }
  std::optional<NodeProfile> expected;
  if (!args.expect.empty()) expected = load_node_profile(args.expect);
  std::string nvml_error;
  const std::unique_ptr<NvmlLibrary> nvml = NvmlLibrary::load(&nvml_error);
  const CudaStatus cuda = probe_cuda();
  const std::vector<int> devices = cuda.error.empty() ? selected_devices(args.devices, cuda.device_count) : std::vector<int>{};
  const NodeFacts facts = read_node_facts(nvml.get(), nvml_error, cuda, devices);
  const std::vector<Finding> findings = judge_node_health(facts, limits, expected);
  const std::vector<GpuIdentity> identities = gpu_identities(facts);
  if (args.json) {
    std::cout << findings_json(findings, identities).dump(2) << "\n";
  } else {
    print_findings(findings, identities, std::cout);
  }
  // The findings that need no GPU are printed above; without a GPU the exit code is still `gpubench run`'s.
  if (!cuda.error.empty()) {
    std::cerr << "gpubench: no usable GPU: " << cuda.error << "\n";
    return kExitNoGpu;
  }
  return any_critical(findings) ? kExitFailed : kExitOk;
}

}  // namespace

void add_doctor_command(CLI::App& app, CommandState& state) {
  auto args = std::make_shared<DoctorArguments>();
  CLI::App* doctor = app.add_subcommand("doctor", "check the node's GPUs, links and host; exit 1 on a critical finding");
  doctor->add_option("--devices", args->devices, "GPUs to check, e.g. 0,1 or 0-3 (default: all)")->check(kDeviceListSyntax);
  doctor->add_flag("--json", args->json, "print the findings as a JSON array");
  doctor->add_option("--expect", args->expect, "node profile to hold the node against (JSON, docs/node-profile.md)");
  doctor->add_option("--xid-window", args->xid_window, "Xids this recent count at full severity, older ones since boot a step lower")
      ->capture_default_str();
  doctor->callback([args, &state] { state.exit_code = doctor_command(*args); });
}

}  // namespace gpubench
