#pragma once
// Each subcommand adds itself to the CLI11 app; its callback stores the command's exit code.
#include <CLI/CLI.hpp>

#include <atomic>
#include <string>
#include <vector>

namespace gpubench {

struct CommandState {
  int exit_code = 0;
  const std::atomic<bool>* stop = nullptr;  // set by SIGINT
  std::vector<std::string> command_line;    // argv, recorded in results documents
};

void add_run_command(CLI::App& app, CommandState& state);
void add_list_command(CLI::App& app, CommandState& state);
void add_env_command(CLI::App& app, CommandState& state);
void add_check_command(CLI::App& app, CommandState& state);
void add_compare_command(CLI::App& app, CommandState& state);
void add_show_command(CLI::App& app, CommandState& state);
void add_report_command(CLI::App& app, CommandState& state);
void add_baseline_command(CLI::App& app, CommandState& state);
void add_history_command(CLI::App& app, CommandState& state);
void add_stress_command(CLI::App& app, CommandState& state);
void add_acceptance_command(CLI::App& app, CommandState& state);
void add_doctor_command(CLI::App& app, CommandState& state);
void add_watch_command(CLI::App& app, CommandState& state);

}  // namespace gpubench
