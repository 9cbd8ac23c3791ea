#pragma once
// Runs a child process with extra environment variables, its output sent to files, a time limit, and a
// stop flag (Ctrl-C). The child gets its own process group so a timeout ends everything it started.
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace gpubench {

struct ChildOutcome {
  int exit_code = -1;   // when it exited normally
  int signal = 0;       // when a signal ended it
  bool timed_out = false;
  bool stopped = false;  // ended because *stop became true
  double seconds = 0;
  std::string launch_error;  // set when it could not be started at all
};

struct ChildCommand {
  std::vector<std::string> argv;
  std::map<std::string, std::string> environment;  // added to (or replacing in) the parent's
  std::string stdout_path;
  std::string stderr_path;
  std::chrono::milliseconds timeout{0};  // 0: none
};

// `tick` (may be empty) is called about ten times a second while the child runs, with the elapsed seconds.
ChildOutcome run_child(const ChildCommand& command, const std::atomic<bool>* stop,
                       const std::function<void(double)>& tick);

// The path of the executable `name` in one of $PATH's folders, or "" when there is none: run_child starts
// argv[0] as given, without a search.
std::string find_program(const std::string& name);

// Runs a command to completion and returns its standard output (for short listing commands).
std::string capture_output(const std::vector<std::string>& argv, const std::map<std::string, std::string>& environment,
                           int* exit_code);

}  // namespace gpubench
