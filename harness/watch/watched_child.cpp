#include "harness/watch/watched_child.hpp"

#include <poll.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

extern char** environ;

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434  // the same number on every architecture Linux added it to
#endif

namespace gpubench {
namespace {

volatile sig_atomic_t g_child = 0;        // the job's pid once started
volatile sig_atomic_t g_stop_signal = 0;  // the last SIGINT/SIGTERM/SIGHUP watch received

// Async-signal-safe: records the signal and, when a process sent it to watch (not the terminal, whose signal the
// job already got as a member of the foreground group, nor the job itself), passes it on to the job.
void on_stop_signal(int signal, siginfo_t* info, void*) {
  g_stop_signal = signal;
  const pid_t child = g_child;
  if (child <= 0 || info == nullptr) return;
  if (info->si_code == SI_KERNEL) return;
  if (info->si_code == SI_USER && info->si_pid == child) return;
  const int saved = errno;
  kill(child, signal);
  errno = saved;
}

void install(int signal) {
  struct sigaction action {};
  action.sa_sigaction = on_stop_signal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(signal, &action, nullptr);
}

}  // namespace

void install_watch_signal_handlers() {
  install(SIGINT);
  install(SIGTERM);
  // A hang-up is handled only where it is not ignored: under nohup the job must go on ignoring it, and a handled
  // signal would be the default again in the job.
  struct sigaction current {};
  if (sigaction(SIGHUP, nullptr, &current) == 0 && current.sa_handler != SIG_IGN) install(SIGHUP);
}

int watch_stop_signal() { return g_stop_signal; }

WatchedChildEnd child_end_from_status(int wait_status) {
  WatchedChildEnd end;
  if (WIFEXITED(wait_status)) {
    end.exit_code = WEXITSTATUS(wait_status);
    end.status = *end.exit_code;
  } else if (WIFSIGNALED(wait_status)) {
    end.signal = WTERMSIG(wait_status);
    end.status = 128 + *end.signal;
  }
  return end;
}

std::optional<WatchedChild> WatchedChild::start(const std::vector<std::string>& argv, std::string* error) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  const int failed = posix_spawnp(&pid, args[0], nullptr, &attributes, args.data(), environ);
  posix_spawnattr_destroy(&attributes);
  if (failed != 0) {
    if (error != nullptr) {
      const bool has_slash = argv[0].find('/') != std::string::npos;
      *error = "'" + argv[0] + "': " +
               (failed == ENOENT ? (has_slash ? "no such file" : "not found in PATH") : std::strerror(failed));
    }
    return std::nullopt;
  }
  g_child = pid;
  return WatchedChild(pid);
}

WatchedChild::WatchedChild(pid_t pid) : pid_(pid) {
  pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (pidfd_ < 0) pidfd_ = -1;
}

WatchedChild::WatchedChild(WatchedChild&& other) noexcept
    : pid_(other.pid_), pidfd_(other.pidfd_), end_(std::move(other.end_)) {
  other.pid_ = -1;
  other.pidfd_ = -1;
}

WatchedChild& WatchedChild::operator=(WatchedChild&& other) noexcept {
  if (this != &other) {
    if (pidfd_ >= 0) close(pidfd_);
    pid_ = other.pid_;
    pidfd_ = other.pidfd_;
    end_ = std::move(other.end_);
    other.pid_ = -1;
    other.pidfd_ = -1;
  }
  return *this;
}

WatchedChild::~WatchedChild() {
  if (pidfd_ >= 0) close(pidfd_);
}

bool WatchedChild::wait_for_end(double timeout_s) {
  if (end_) return true;
  const auto reap = [this] {
    int status = 0;
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done != pid_) return false;
    end_ = child_end_from_status(status);
    g_child = 0;  // its pid may be given to another process now: nothing more is forwarded to it
    return true;
  };
  if (reap() || timeout_s <= 0) return end_.has_value();
  if (pidfd_ >= 0) {
    pollfd fd{pidfd_, POLLIN, 0};
    poll(&fd, 1, static_cast<int>(std::ceil(timeout_s * 1000)));  // a signal ends it early (EINTR)
    return reap();
  }
  // Without pidfd: look every 20 ms; a signal ends a sleep early.
  const int stop_before = g_stop_signal;
  double left = timeout_s;
  while (left > 0) {
    const double step = std::min(left, 0.02);
    timespec pause{0, static_cast<long>(step * 1e9)};
    const bool interrupted = nanosleep(&pause, nullptr) != 0;
    left -= step;
    if (reap()) return true;
    if (interrupted || g_stop_signal != stop_before) break;
  }
  return false;
}

}  // namespace gpubench
