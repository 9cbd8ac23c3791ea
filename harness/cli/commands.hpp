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

// Each adds its subcommand to the app: add_run_command is in command_run.cpp, and so on.
using AddCommand = void(CLI::App& app, CommandState& state);
AddCommand add_run_command, add_list_command, add_env_command, add_check_command, add_compare_command,
    add_show_command, add_report_command, add_baseline_command, add_history_command, add_stress_command,
    add_acceptance_command, add_doctor_command, add_watch_command;

}  // namespace gpubench
