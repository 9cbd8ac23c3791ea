#pragma once
// The job `gpubench watch -- COMMAND` runs: started as a child that inherits watch's standard input, output and
// error, so the job reads and writes exactly as it would alone, and its end reported as a shell reports it.
//
// Process group: the child stays in watch's group. A terminal's Ctrl-C (and Ctrl-\) reaches every process of the
// foreground group, the job among them, so the job gets it once, from the terminal, as it would without watch; a
// child in a group of its own would leave the foreground group and be stopped (SIGTTIN) the moment it read the
// terminal. So watch forwards a SIGINT or SIGTERM only when a process sent it (kill, a scheduler, a test): that
// signal reached watch alone. One the terminal sent (si_code SI_KERNEL) already reached the job and is not sent
// twice. A signal sent to the whole group (kill -TERM -PGID) reaches the job from the sender and again from watch;
// a standard signal pending twice is delivered once, so a job that has not yet handled the first sees one.
#include <signal.h>
#include <sys/types.h>

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace gpubench {

// Installs watch's SIGINT and SIGTERM handlers (replacing main's): each records the signal, and forwards it to the
// child that start_watched_child registered when a process, not the terminal, sent it. Call before starting the
// child.
void install_watch_signal_handlers();
// The last SIGINT or SIGTERM watch received, 0 when none.
int watch_stop_signal();

struct WatchedChildEnd {
  int status = 0;                // the exit code, or 128 + the signal, as a shell reports it
  std::optional<int> exit_code;  // when it exited by itself
  std::optional<int> signal;     // when a signal ended it
};

class WatchedChild {
 public:
  // Starts argv[0], looked up in PATH as a shell would (posix_spawnp), with watch's environment, standard streams
  // and process group; the signal mask is cleared, and SIGINT, SIGTERM and SIGHUP, which watch handles, are the
  // defaults again in the job. Registers it for the forwarding above. When it cannot start, returns nothing and
  // says why in `*error` ("'trian.py': not found in PATH").
  static std::optional<WatchedChild> start(const std::vector<std::string>& argv, std::string* error);

  pid_t pid() const { return pid_; }
  // Waits up to `timeout_s` (0: only looks) for the child to end; true once it has, and then end() is set.
  // Returns early when a signal arrives, so the caller can look at watch_stop_signal().
  bool wait_for_end(double timeout_s);
  const std::optional<WatchedChildEnd>& end() const { return end_; }

  WatchedChild(WatchedChild&& other) noexcept;
  WatchedChild& operator=(WatchedChild&& other) noexcept;
  WatchedChild(const WatchedChild&) = delete;
  ~WatchedChild();

 private:
  explicit WatchedChild(pid_t pid);
  pid_t pid_ = -1;
  int pidfd_ = -1;  // Linux 5.3+: poll()able until the child ends; -1 where the kernel lacks pidfd_open
  std::optional<WatchedChildEnd> end_;
};

// "128 + 9" -> 137, and the rest of WatchedChildEnd, from waitpid's status.
WatchedChildEnd child_end_from_status(int wait_status);

}  // namespace gpubench
