#include "harness/acceptance/dcgm_run.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/child_process.hpp"

namespace gpubench {
namespace {

// DCGM's documentation gives levels 1 to 4 about a minute, a few minutes, half an hour and one to two hours;
// each limit leaves room for a slow node.
std::chrono::minutes time_limit(int level) {
  switch (level) {
    case 1: return std::chrono::minutes(10);
    case 2: return std::chrono::minutes(20);
    case 3: return std::chrono::minutes(90);
    default: return std::chrono::minutes(240);
  }
}

std::string first_line_of(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) return line;
  }
  return "";
}

std::string id_list(const std::vector<unsigned>& ids) {
  std::string list;
  for (unsigned id : ids) list += (list.empty() ? "" : ",") + std::to_string(id);
  return list;
}

}  // namespace

DcgmRun run_dcgm_diag(int level, const std::vector<unsigned>& gpus, const std::string& log_dir, const std::atomic<bool>& stop) {
  DcgmRun run;
  const std::string dcgmi = find_program("dcgmi");
  if (dcgmi.empty()) {
    run.skipped_because = "dcgmi is not installed (not on PATH): install NVIDIA DCGM (datacenter-gpu-manager) and start nv-hostengine";
    return run;
  }
  std::error_code error;
  std::filesystem::create_directories(log_dir, error);
  ChildCommand command;
  command.argv = {dcgmi, "diag", "-r", std::to_string(level), "-j"};
  if (!gpus.empty()) command.argv.insert(command.argv.end(), {"-i", id_list(gpus)});
  command.stdout_path = log_dir + "/dcgmi-diag.json";
  command.stderr_path = log_dir + "/dcgmi-diag.err";
  command.timeout = time_limit(level);
  const ChildOutcome outcome = run_child(command, &stop, {});
  const std::string said = first_line_of(command.stderr_path);
  const std::string words = said.empty() ? "" : ": " + said;
  if (!outcome.launch_error.empty()) {
    run.no_result = outcome.launch_error;
  } else if (outcome.timed_out) {
    run.no_result = "dcgmi diag -r " + std::to_string(level) + " ran past its limit of " + std::to_string(time_limit(level).count()) + " min";
  } else if (outcome.stopped) {
    run.no_result = "stopped before dcgmi diag finished";
  } else {
    // dcgmi exits non-zero when a test fails, with the results in its JSON all the same.
    try {
      run.report = parse_dcgm_diag(read_json_file(command.stdout_path));
    } catch (const InputError& bad) {
      run.no_result = "dcgmi diag gave no JSON (exit status " + std::to_string(outcome.exit_code) + words + "): " + bad.what();
    } catch (const std::invalid_argument& bad) {
      run.no_result = std::string("dcgmi diag gave no results: ") + bad.what() + words;
    }
  }
  return run;
}

}  // namespace gpubench
