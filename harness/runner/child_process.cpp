#include "harness/runner/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace gpubench {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> merged_environment(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const std::string name = text.substr(0, text.find('='));
    if (extra.count(name) == 0) env.push_back(text);
  }
  for (const auto& [name, value] : extra) env.push_back(name + "=" + value);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// What the child started and left behind in its group (a grandchild deaf to SIGTERM) must not go on using the
// GPU. While any member lives the group id cannot be given to a new process, so this reaches only the group.
void end_stragglers(pid_t group) { kill(-group, SIGKILL); }

void end_group(pid_t pid, int* status) {
  kill(-pid, SIGTERM);
  const auto deadline = Clock::now() + std::chrono::seconds(3);
  while (Clock::now() < deadline) {
    if (waitpid(pid, status, WNOHANG) == pid) {
      end_stragglers(pid);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill(-pid, SIGKILL);
  waitpid(pid, status, 0);
}

// posix_spawn, not fork: the runner forks while its telemetry thread runs, and a forked child may only call
// async-signal-safe functions before exec (the old child's fprintf and open were not). The child gets its own
// process group, so a timeout or Ctrl-C ends everything it started, and the terminal's Ctrl-C reaches only the
// harness, which ends the child in order. Signal dispositions and the mask are reset to the defaults. glibc
// reports a failed open or exec as the return value, so "cannot start" names the reason.
int spawn_in_own_group(const ChildCommand& command, char* const argv[], char* const envp[], pid_t* pid) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const int output_flags = O_WRONLY | O_CREAT | O_TRUNC;
  if (!command.stdout_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, command.stdout_path.c_str(), output_flags, 0644);
  }
  if (!command.stderr_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, command.stderr_path.c_str(), output_flags, 0644);
  }
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);  // no file of the harness leaks in
#endif
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t all_signals;
  sigset_t no_signals;
  sigfillset(&all_signals);
  sigemptyset(&no_signals);
  posix_spawnattr_setsigdefault(&attributes, &all_signals);
  posix_spawnattr_setsigmask(&attributes, &no_signals);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  const int error = posix_spawn(pid, argv[0], &actions, &attributes, argv, envp);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  return error;
}

}  // namespace

ChildOutcome run_child(const ChildCommand& command, const std::atomic<bool>* stop,
                       const std::function<void(double)>& tick) {
  ChildOutcome outcome;
  std::vector<std::string> argv_strings = command.argv;
  std::vector<std::string> env_strings = merged_environment(command.environment);
  std::vector<char*> argv = pointers(argv_strings);
  std::vector<char*> envp = pointers(env_strings);
  const auto started = Clock::now();
  pid_t pid = 0;
  if (const int error = spawn_in_own_group(command, argv.data(), envp.data(), &pid); error != 0) {
    outcome.launch_error = "cannot start " + argv_strings.front() + ": " + std::strerror(error);
    return outcome;
  }
  int status = 0;
  // Polled every 10 ms: a quick run starts some 25 children, most of them short (listings, families with nothing
  // to run on one GPU), and a 100 ms poll kept each waiting 50 ms on average after it had ended. `tick` (a progress
  // line) still comes every 100 ms.
  constexpr auto kPoll = std::chrono::milliseconds(10);
  constexpr auto kTickEvery = std::chrono::milliseconds(100);
  auto next_tick = started + kTickEvery;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - started).count();
    if (command.timeout.count() > 0 && elapsed * 1000 > command.timeout.count()) {
      outcome.timed_out = true;
      end_group(pid, &status);
      break;
    }
    if (stop != nullptr && stop->load()) {
      outcome.stopped = true;
      end_group(pid, &status);
      break;
    }
    if (tick && now >= next_tick) {
      tick(elapsed);
      next_tick = now + kTickEvery;
    }
    std::this_thread::sleep_for(kPoll);
  }
  outcome.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  return outcome;
}

std::string find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream folders(path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin");
  for (std::string folder; std::getline(folders, folder, ':');) {
    if (folder.empty()) continue;
    const std::string candidate = folder + "/" + name;
    std::error_code error;
    if (std::filesystem::is_regular_file(candidate, error) && access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

std::string capture_output(const std::vector<std::string>& argv, const std::map<std::string, std::string>& environment,
                           int* exit_code) {
  char path_template[] = "/tmp/gpubench-capture-XXXXXX";
  const int fd = mkstemp(path_template);
  if (fd < 0) {
    if (exit_code) *exit_code = -1;
    return "";
  }
  close(fd);
  ChildCommand command{argv, environment, path_template, "/dev/null", std::chrono::milliseconds(60000)};
  const ChildOutcome outcome = run_child(command, nullptr, {});
  std::ifstream in(path_template);
  std::ostringstream text;
  text << in.rdbuf();
  unlink(path_template);
  if (exit_code) *exit_code = outcome.launch_error.empty() && !outcome.timed_out ? outcome.exit_code : -1;
  return text.str();
}

}  // namespace gpubench
