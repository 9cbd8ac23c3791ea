// gpubench run: runs a suite and writes the results document.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <memory>

#include "benchmarks/common/device_selection.hpp"
#include "benchmarks/common/nvml_library.hpp"
#include "gpubench/version.hpp"
#include "harness/cli/cli_support.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/device_list_option.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/cli/filter_option.hpp"
#include "harness/cli/gemm_shapes_option.hpp"
#include "harness/cli/output_paths.hpp"
#include "harness/cli/results_destination.hpp"
#include "harness/environment/fingerprint.hpp"
#include "harness/report/progress_display.hpp"
#include "harness/report/run_summary.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/micro_listing.hpp"
#include "harness/runner/run_benchmarks.hpp"
#include "harness/runner/run_record.hpp"

namespace gpubench {
namespace {

struct RunArguments {
  std::string suite = "quick";
  std::string filter;
  std::string devices;
  ResultsDestination destination;
  std::string log_dir;
  std::string gemm_shapes;  // as GPUBENCH_GEMM_SHAPES reads it, checked by kGemmShapeList
  int repetitions = 0;
  int timeout_seconds = 0;
  bool allow_nvls = false;
  std::vector<std::string> command_line;
};

int run_command(const RunArguments& args, const std::atomic<bool>& stop) {
  // Where it writes is checked first (exit 2), before the GPU (exit 3): a job with a path it cannot write learns
  // it at once, on any machine, and not from a run whose every family failed to keep its log.
  refuse_outputs_over_inputs({{"-o", args.destination.output}, {"--log-dir", args.log_dir}}, {});
  check_results_destination(args.destination);
  if (!args.log_dir.empty()) check_output_folder("--log-dir", args.log_dir);

  std::string nvml_error;
  const std::unique_ptr<NvmlLibrary> nvml = NvmlLibrary::load(&nvml_error);
  const CudaStatus cuda = probe_cuda();
  if (!cuda.error.empty()) throw NoGpuError(cuda.error);

  RunOptions options;
  options.suite = args.suite;
  options.filter = args.filter;
  options.repetitions = args.repetitions;
  options.timeout = std::chrono::seconds(args.timeout_seconds);
  options.micro_path = default_micro_path();
  options.devices = selected_devices(args.devices, cuda.device_count);
  options.gemm_shapes = parse_gemm_shape_list(args.gemm_shapes);
  options.allow_nvls = args.allow_nvls;
  const char* inherited_nvls = std::getenv("NCCL_NVLS_ENABLE");
  if (!args.allow_nvls && inherited_nvls != nullptr && std::string(inherited_nvls) != "0") {
    std::cerr << "gpubench: NCCL_NVLS_ENABLE=" << inherited_nvls
              << " is not passed on: NVLink multicast stays off unless --allow-nvls\n";
  }

  ResultsDocument document = start_results_document(args.command_line, args.suite, options.devices, nvml.get(), nvml_error);
  const std::string output = results_path(args.destination, document);
  options.log_dir = args.log_dir.empty() ? output + ".logs" : args.log_dir;

  std::vector<TelemetrySampler::Target> targets;
  for (int index : options.devices) targets.push_back({index, nvml ? nvml->device_for_cuda_index(index) : nullptr});

  RunObserver observer = make_progress_display(std::cerr, isatty(STDERR_FILENO) != 0);
  observer.checkpoint = [&output](const ResultsDocument& so_far) { write_json_atomically(to_json(so_far), output); };
  std::cerr << "gpubench " << kVersion << ": suite " << args.suite << " on GPU " << format_device_list(options.devices)
            << " of " << document.run.host << "; results to " << output << ", logs in " << options.log_dir << "\n";
  run_benchmarks(options, targets, nvml.get(), observer, stop, document);
  finish_results_document(document);
  write_json_atomically(to_json(document), output);

  print_run_summary(document, std::cout);
  std::cout << "results: " << output << "\n";
  if (document.metrics.empty() && document.failures.empty() && !document.run.interrupted) {
    std::cerr << "gpubench: no benchmark matched --filter '" << args.filter << "' in suite " << args.suite << "\n";
    return kExitUsage;
  }
  return document.failures.empty() && !document.run.interrupted ? kExitOk : kExitFailed;
}

}  // namespace

void add_run_command(CLI::App& app, CommandState& state) {
  auto args = std::make_shared<RunArguments>();
  CLI::App* run = app.add_subcommand("run", "run a benchmark suite and write a results document");
  run->add_option("--suite", args->suite, "quick (about 5 min on two H200s) or full")->check(CLI::IsMember({"quick", "full"}))->capture_default_str();
  run->add_option("--filter", args->filter, "only benchmarks whose name matches this regular expression")
      ->check(kFilterPattern);
  run->add_option("--devices", args->devices, "GPUs to use, e.g. 0,1 or 0-3 (default: all)")->check(kDeviceListSyntax);
  add_results_destination_options(*run, args->destination, "");
  run->add_option("--log-dir", args->log_dir, "where each family's raw output goes (default: OUTPUT.logs)");
  run->add_option("--gemm-shapes", args->gemm_shapes,
                  "also measure GEMM at these shapes, in every precision, as gemm/PRECISION/MxNxK: a list "
                  "M,N,K[:M,N,K...] or a file with one M,N,K a line")
      ->check(kGemmShapeList);
  run->add_option("--repetitions", args->repetitions, "repetitions per benchmark (default: 3 quick, 5 full)")->check(CLI::Range(1, 1000));
  run->add_flag("--allow-nvls", args->allow_nvls,
                "let NCCL use NVLink SHARP (NCCL_NVLS_ENABLE=1) in the nccl family; off by default, as NVLink multicast "
                "can put a shared host's GPUs out of service");
  run->add_option("--timeout", args->timeout_seconds, "seconds per family variant (each NCCL combination is one) before it is stopped (default: per family)")->check(CLI::Range(1, 86400));
  run->callback([args, &state] {
    args->command_line = state.command_line;
    state.exit_code = run_command(*args, *state.stop);
  });
}

}  // namespace gpubench
