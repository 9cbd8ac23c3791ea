#pragma once
// Exit codes of every gpubench command (docs/commands/README.md): 0 all good; 1 a regression, a failed check or an
// unhealthy GPU; 2 bad usage or a bad input file; 3 no usable GPU or driver; 130 stopped by SIGINT or SIGTERM
// before it had an answer (a command that reads many files stops between two).
#include <stdexcept>
#include <string>

namespace gpubench {

enum ExitCode : int { kExitOk = 0, kExitFailed = 1, kExitUsage = 2, kExitNoGpu = 3, kExitInterrupted = 130 };

// Thrown by a command for a bad argument value that CLI11 could not catch itself.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Thrown when the command needs a GPU and CUDA offers none; the message is CUDA's reason.
class NoGpuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Thrown by a command that saw the stop flag (SIGINT or SIGTERM) before it had an answer.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

}  // namespace gpubench
