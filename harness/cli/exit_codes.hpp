#pragma once
// Exit codes of every gpubench command (DESIGN.md): 0 all good; 1 a regression, a failed check or an
// unhealthy GPU; 2 bad usage or a bad input file; 3 no usable GPU or driver.
#include <stdexcept>
#include <string>

namespace gpubench {

enum ExitCode : int { kExitOk = 0, kExitFailed = 1, kExitUsage = 2, kExitNoGpu = 3 };

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

}  // namespace gpubench
