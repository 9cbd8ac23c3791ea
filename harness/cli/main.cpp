// gpubench: the command-line harness (run, list, env, ...). docs/architecture.md describes the layers.
#include <CLI/CLI.hpp>

#include <atomic>
#include <csignal>
#include <iostream>

#include "gpubench/version.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/output_error.hpp"

namespace {

// The one piece of global state: Ctrl-C asks the running command to stop and write what it has.
std::atomic<bool> stop_requested{false};

void on_interrupt(int) {
  if (stop_requested.exchange(true)) std::_Exit(130);  // a second Ctrl-C leaves at once
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpubench;
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);

  CLI::App app{"gpubench: GPU microbenchmarks, stress tests and regression checks"};
  app.set_version_flag("--version", std::string("gpubench ") + kVersion + " (" + kGitRevision + ")");
  app.require_subcommand(1);
  CommandState state;
  state.stop = &stop_requested;
  state.command_line.assign(argv, argv + argc);
  add_run_command(app, state);
  add_list_command(app, state);
  add_env_command(app, state);
  add_check_command(app, state);
  add_compare_command(app, state);
  add_show_command(app, state);
  add_report_command(app, state);
  add_baseline_command(app, state);
  add_history_command(app, state);
  add_stress_command(app, state);
  add_acceptance_command(app, state);
  add_doctor_command(app, state);
  add_watch_command(app, state);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? kExitOk : kExitUsage;
  } catch (const UsageError& error) {
    std::cerr << "gpubench: " << error.what() << "\n";
    return kExitUsage;
  } catch (const InputError& error) {
    std::cerr << "gpubench: " << error.what() << "\n";
    return kExitUsage;
  } catch (const OutputError& error) {
    std::cerr << "gpubench: " << error.what() << "\n";
    return kExitUsage;
  } catch (const Interrupted&) {
    std::cerr << "gpubench: interrupted\n";
    return kExitInterrupted;
  } catch (const NoGpuError& error) {
    std::cerr << "gpubench: no usable GPU: " << error.what() << "\n";
    return kExitNoGpu;
  } catch (const std::exception& error) {
    std::cerr << "gpubench: error: " << error.what() << "\n";
    return kExitFailed;
  }
  return state.exit_code;
}
