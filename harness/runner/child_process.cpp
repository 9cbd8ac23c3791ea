#include "harness/runner/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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

void end_group(pid_t pid, int* status) {
  kill(-pid, SIGTERM);
  const auto deadline = Clock::now() + std::chrono::seconds(3);
  while (Clock::now() < deadline) {
    if (waitpid(pid, status, WNOHANG) == pid) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill(-pid, SIGKILL);
  waitpid(pid, status, 0);
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
  const pid_t pid = fork();
  if (pid < 0) {
    outcome.launch_error = std::string("fork failed: ") + std::strerror(errno);
    return outcome;
  }
  if (pid == 0) {
    setpgid(0, 0);
    signal(SIGINT, SIG_IGN);  // Ctrl-C reaches the harness, which ends the child in order
    const auto redirect = [](const std::string& path, int fd) {
      if (path.empty()) return;
      const int file = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (file >= 0) {
        dup2(file, fd);
        close(file);
      }
    };
    redirect(command.stdout_path, STDOUT_FILENO);
    redirect(command.stderr_path, STDERR_FILENO);
    execve(argv[0], argv.data(), envp.data());
    std::fprintf(stderr, "cannot execute %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);
  int status = 0;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
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
    if (tick) tick(elapsed);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  outcome.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  return outcome;
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
