// gpubench stress: burn-in with verified results and telemetry; one verdict per GPU and one for the node.
#include <unistd.h>

#include <iostream>
#include <memory>

#include "benchmarks/common/device_selection.hpp"
#include "benchmarks/common/nvml_library.hpp"
#include "harness/cli/cli_support.hpp"
#include "harness/cli/duration_text.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/device_list_option.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/cli/finite_number.hpp"
#include "harness/cli/results_destination.hpp"
#include "harness/environment/fingerprint.hpp"
#include "harness/report/stress_display.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/run_record.hpp"
#include "harness/stress/stress_document.hpp"
#include "harness/stress/stress_run.hpp"

namespace gpubench {
namespace {

struct StressArguments {
  std::string mode = "sustained";
  bool interconnect = false;
  std::string duration = "60s";
  std::string devices;
  ResultsDestination destination;
  double max_temperature_c = 85;
  std::string inject_fault;
};

int stress_command(const StressArguments& args, const CommandState& state) {
  std::chrono::seconds duration;
  try {
    duration = parse_duration(args.duration);
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--duration ") + error.what());
  }
  // The copies would fill the pulse load's idle halves, which are the point of it.
  if (args.interconnect && args.mode == "pulse") throw UsageError("--interconnect runs with --mode sustained or power, not pulse");
  // Checked before the GPU, not found unwritable at the end of a burn-in.
  check_results_destination(args.destination);
  std::string nvml_error;
  const std::unique_ptr<NvmlLibrary> nvml = NvmlLibrary::load(&nvml_error);
  const CudaStatus cuda = probe_cuda();
  if (!cuda.error.empty()) throw NoGpuError(cuda.error);
  StressOptions options;
  options.mode = *parse_stress_mode(args.mode);
  options.interconnect = args.interconnect;
  options.duration = duration;
  options.inject_fault = args.inject_fault;
  options.devices = selected_devices(args.devices, cuda.device_count);
  if (!nvml) std::cerr << "gpubench: " << nvml_error << ": no telemetry, temperature or throttle checks\n";

  ResultsDocument document = start_results_document(state.command_line, "stress", options.devices, nvml.get(), nvml_error);
  const std::string output = results_path(args.destination, document);
  const bool terminal = isatty(STDERR_FILENO) != 0;
  int lines = 0;
  std::cerr << "gpubench stress: " << stress_mode_name(options.mode) << " load, " << duration.count() << " s on GPU " << format_device_list(options.devices) << "\n";
  const std::vector<GpuStressRecord> records =
      run_stress(options, nvml.get(), *state.stop, [&](double elapsed, const std::vector<GpuStressRecord>& so_far) {
        if (terminal || static_cast<long>(elapsed) % 10 == 0) {
          draw_stress_progress(std::cerr, elapsed, static_cast<double>(duration.count()), so_far, terminal, lines);
        }
      });
  StressLimits limits;
  limits.max_temperature_c = args.max_temperature_c;
  limits.power_target = options.power_target;
  const std::vector<GpuStressVerdict> verdicts = judge_stress(records, limits);
  add_stress_to_document(records, verdicts, limits, static_cast<double>(duration.count()), document);
  document.run.interrupted = state.stop->load();
  finish_results_document(document);
  write_json_atomically(to_json(document), output);
  print_stress_summary(std::cout, records, verdicts);
  std::cout << "results: " << output << "\n";
  // A burn-in stopped early did not run for the time it was asked to: it cannot pass.
  return document.run.interrupted || node_verdict(verdicts) == Grade::Fail ? kExitFailed : kExitOk;
}

}  // namespace

void add_stress_command(CLI::App& app, CommandState& state) {
  auto args = std::make_shared<StressArguments>();
  CLI::App* stress = app.add_subcommand("stress", "burn-in: Tensor Core GEMM and memory test, power target or pulse load on every GPU, verified, with telemetry");
  // One load a run, each with its rules: acceptance's levels chain them, and a results document keeps one per run.
  stress->add_option("--mode", args->mode,
                     "the load: sustained (GEMM and memory test), power (GEMM held at the power limit, judged on reaching "
                     "it), pulse (full load and idle alternating at 10 ms, 100 ms and 1 s periods)")
      ->check(CLI::IsMember(stress_mode_names()))
      ->capture_default_str();
  stress->add_flag("--interconnect", args->interconnect,
                   "also copy over P2P (NVLink) and PCIe beside the load, every copy checked (sustained and power)");
  stress->add_option("--duration", args->duration, "how long: 90s, 10m, 1h30m, 1d")->capture_default_str();
  stress->add_option("--devices", args->devices, "GPUs to use, e.g. 0,1 (default: all)")->check(kDeviceListSyntax);
  add_results_destination_options(*stress, args->destination, "-stress");
  stress->add_option("--max-temperature", args->max_temperature_c, "fail a GPU that reaches this temperature (C)")
      ->check(kFiniteNumber)
      ->check(CLI::Range(1.0, 150.0))
      ->capture_default_str();
  // Test-only: prove the corruption checks catch a flipped bit (gemm: one result element; memory: one word).
  stress->add_option("--inject-fault", args->inject_fault)->check(CLI::IsMember({"gemm", "memory"}))->group("");
  stress->callback([args, &state] { state.exit_code = stress_command(*args, state); });
}

}  // namespace gpubench
