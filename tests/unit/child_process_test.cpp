// run_child starts gpubench-micro with posix_spawn in a process group of its own. These tests pin what that
// promises: a child that cannot start says why (no silent exit 127), a timeout ends the whole group (also a
// grandchild deaf to SIGTERM, which would otherwise go on using the GPU), and the child inherits neither the
// harness's open files nor its blocked or ignored signals.
#include "harness/runner/child_process.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace gpubench {
namespace {

class ChildProcess : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir_template[] = "/tmp/gpubench-child-test-XXXXXX";
    dir_ = mkdtemp(dir_template);
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }

  std::string script(const std::string& name, const std::string& text) const {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    chmod(path.c_str(), 0755);
    return path;
  }

  static std::string read(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::string dir_;
};

bool process_gone_within(pid_t pid, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    // A killed grandchild is reaped by init (or the nearest subreaper); until then it is a zombie, which no
    // longer runs: /proc/PID/stat's state field says so.
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return true;
    const std::size_t after_name = line.rfind(')');
    if (after_name != std::string::npos && line.size() > after_name + 2 && line[after_name + 2] == 'Z') return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// Whether /proc/PID/status's hexadecimal mask `field` holds `signal` (its bit signal - 1).
bool signal_in_mask(const std::string& status, const std::string& field, int signal) {
  const std::size_t at = status.find(field + ":\t");
  if (at == std::string::npos) return true;
  const unsigned long long mask = std::strtoull(status.c_str() + at + field.size() + 2, nullptr, 16);
  return ((mask >> (signal - 1)) & 1ULL) != 0;
}

TEST_F(ChildProcess, AProgramThatCannotStartSaysWhy) {
  ChildCommand command{{dir_ + "/no-such-program"}, {}, dir_ + "/out", dir_ + "/err", std::chrono::seconds(10)};
  const ChildOutcome outcome = run_child(command, nullptr, {});
  EXPECT_NE(outcome.launch_error.find("no-such-program"), std::string::npos) << outcome.launch_error;
  EXPECT_NE(outcome.launch_error.find("No such file"), std::string::npos) << outcome.launch_error;
}

TEST_F(ChildProcess, AnOutputFileThatCannotBeOpenedStopsTheStart) {
  const std::string program = script("quiet.sh", "#!/bin/sh\nexit 0\n");
  ChildCommand command{{program}, {}, dir_ + "/missing-folder/out", dir_ + "/err", std::chrono::seconds(10)};
  const ChildOutcome outcome = run_child(command, nullptr, {});
  EXPECT_FALSE(outcome.launch_error.empty()) << "exit " << outcome.exit_code;
}

TEST_F(ChildProcess, ATimeoutEndsAGrandchildThatIgnoresSigterm) {
  const std::string pid_file = dir_ + "/grandchild.pid";
  const std::string program =
      script("stubborn.sh", "#!/bin/sh\n(trap '' TERM; exec sleep 60) &\necho $! > " + pid_file + "\nwait\n");
  ChildCommand command{{program}, {}, dir_ + "/out", dir_ + "/err", std::chrono::milliseconds(1500)};
  const ChildOutcome outcome = run_child(command, nullptr, {});
  ASSERT_TRUE(outcome.launch_error.empty()) << outcome.launch_error;
  EXPECT_TRUE(outcome.timed_out);
  const pid_t grandchild = static_cast<pid_t>(std::atoi(read(pid_file).c_str()));
  ASSERT_GT(grandchild, 0);
  const bool gone = process_gone_within(grandchild, std::chrono::seconds(5));
  if (!gone) kill(grandchild, SIGKILL);
  EXPECT_TRUE(gone) << "the grandchild " << grandchild << " outlived its group's timeout";
}

TEST_F(ChildProcess, TheChildInheritsNoOpenFileAndNoBlockedOrIgnoredSignal) {
  // A harness file without O_CLOEXEC (an ofstream's), at a number no shell uses for itself.
  const int opened = open("/dev/null", O_RDONLY);
  ASSERT_GE(opened, 0);
  const int leaked = fcntl(opened, F_DUPFD, 40);
  close(opened);
  ASSERT_GE(leaked, 40);
  sigset_t blocked;
  sigset_t previous;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &blocked, &previous);
  struct sigaction ignore {};
  struct sigaction previous_action {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGUSR2, &ignore, &previous_action);

  const std::string program = script("inspect.sh",
                                     "#!/bin/sh\n"
                                     "if [ -e /proc/$$/fd/$1 ]; then echo fd=open; else echo fd=closed; fi\n"
                                     "grep -E '^Sig(Blk|Ign)' /proc/self/status\n");
  ChildCommand command{{program, std::to_string(leaked)}, {}, dir_ + "/out", dir_ + "/err", std::chrono::seconds(10)};
  const ChildOutcome outcome = run_child(command, nullptr, {});

  sigaction(SIGUSR2, &previous_action, nullptr);
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  close(leaked);
  ASSERT_TRUE(outcome.launch_error.empty()) << outcome.launch_error;
  ASSERT_EQ(outcome.exit_code, 0) << read(dir_ + "/err");

  const std::string report = read(dir_ + "/out");
  EXPECT_NE(report.find("fd=closed"), std::string::npos) << "the harness's open file reached the child: " << report;
  EXPECT_FALSE(signal_in_mask(report, "SigBlk", SIGUSR1)) << report;
  EXPECT_FALSE(signal_in_mask(report, "SigIgn", SIGUSR2)) << report;
}

}  // namespace
}  // namespace gpubench
