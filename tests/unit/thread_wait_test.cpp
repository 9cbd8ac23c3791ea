// What a blocked thread waits on, read from the real /proc of processes this test starts (sleeping, reading a pipe,
// receiving from and polling a TCP socket, waiting on a lock, a file lock, a child) and from a made-up /proc for
// what a test cannot provoke at will (uninterruptible sleep, a read of a regular file).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>

#include "harness/watch/proc_text.hpp"
#include "harness/watch/thread_wait.hpp"

namespace gpubench {
namespace {

// A child process that runs `block` (which never returns); killed when the test ends.
class BlockedChild {
 public:
  explicit BlockedChild(const std::function<void()>& block) {
    pid_ = fork();
    if (pid_ == 0) {
      block();
      _exit(0);
    }
  }
  ~BlockedChild() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

char state_of(pid_t pid, pid_t tid) {
  const std::vector<std::string> fields =
      stat_fields(read_proc_text("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/stat"));
  return fields.empty() || fields[0].empty() ? '?' : fields[0][0];
}

// What the thread waits on once it has blocked as expected (within 5 s), or the last thing read.
std::optional<ThreadWait> settled_wait(pid_t pid, pid_t tid, WaitKind expected) {
  std::optional<ThreadWait> wait;
  for (int i = 0; i < 500; ++i) {
    wait = thread_wait("/proc", pid, tid, state_of(pid, tid));
    if (wait && wait->kind == expected) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return wait;
}

TEST(ThreadWait, ASleepingProcessSleeps) {
  BlockedChild child([] {
    for (;;) sleep(100);
  });
  const auto wait = settled_wait(child.pid(), child.pid(), WaitKind::Sleep);
  ASSERT_TRUE(wait);
  EXPECT_EQ(wait->kind, WaitKind::Sleep) << wait->detail;
  EXPECT_NE(wait->detail.find("sleep"), std::string::npos) << wait->detail;
}

TEST(ThreadWait, AReadOfAnEmptyPipeWaitsOnALocalProcess) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  BlockedChild child([&] {
    char byte;
    for (;;) (void)!read(fds[0], &byte, 1);
  });
  const auto wait = settled_wait(child.pid(), child.pid(), WaitKind::Local);
  close(fds[0]);
  close(fds[1]);
  ASSERT_TRUE(wait);
  EXPECT_EQ(wait->kind, WaitKind::Local) << wait->detail;
  EXPECT_NE(wait->detail.find("read() on a pipe"), std::string::npos) << wait->detail;
}

// A listening TCP socket on the loopback address and its port.
int listen_on_loopback(int* port) {
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(listener, 4) != 0) return -1;
  socklen_t size = sizeof address;
  getsockname(listener, reinterpret_cast<sockaddr*>(&address), &size);
  *port = ntohs(address.sin_port);
  return listener;
}

int connect_to(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  return connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 ? fd : -1;
}

TEST(ThreadWait, AReceiveOnATcpSocketWaitsOnTheNetworkAndNamesThePeer) {
  int port = 0;
  const int listener = listen_on_loopback(&port);
  ASSERT_GE(listener, 0);
  BlockedChild child([&] {
    const int fd = connect_to(port);
    char buffer[16];
    for (;;) (void)!recv(fd, buffer, sizeof buffer, 0);
  });
  const auto wait = settled_wait(child.pid(), child.pid(), WaitKind::Network);
  close(listener);
  ASSERT_TRUE(wait);
  EXPECT_EQ(wait->kind, WaitKind::Network) << wait->detail;
  EXPECT_NE(wait->detail.find("TCP 127.0.0.1:" + std::to_string(port)), std::string::npos) << wait->detail;
}

TEST(ThreadWait, APollOnATcpSocketReadsTheDescriptorsFromTheProcessMemory) {
  int port = 0;
  const int listener = listen_on_loopback(&port);
  ASSERT_GE(listener, 0);
  BlockedChild child([&] {
    int fds[2];
    if (pipe(fds) != 0) return;
    pollfd watched[2] = {{fds[0], POLLIN, 0}, {connect_to(port), POLLIN, 0}};
    for (;;) poll(watched, 2, -1);
  });
  const auto wait = settled_wait(child.pid(), child.pid(), WaitKind::Network);
  close(listener);
  ASSERT_TRUE(wait);
  EXPECT_EQ(wait->kind, WaitKind::Network) << wait->detail;
  EXPECT_EQ(wait->detail.rfind("poll() on TCP", 0), 0u) << wait->detail;
}

TEST(ThreadWait, AThreadWaitingOnAConditionWaitsOnALock) {
  std::mutex mutex;
  std::condition_variable condition;
  bool done = false;
  pid_t tid = 0;
  std::thread waiter([&] {
    std::unique_lock<std::mutex> lock(mutex);
    tid = static_cast<pid_t>(syscall(SYS_gettid));
    condition.wait(lock, [&] { return done; });
  });
  while (true) {
    std::lock_guard<std::mutex> lock(mutex);
    if (tid != 0) break;
  }
  const auto wait = settled_wait(getpid(), tid, WaitKind::Lock);
  {
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
  }
  condition.notify_all();
  waiter.join();
  ASSERT_TRUE(wait);
  EXPECT_EQ(wait->kind, WaitKind::Lock) << wait->detail;
  EXPECT_NE(wait->detail.find("futex"), std::string::npos) << wait->detail;
}

TEST(ThreadWait, AHeldFileLockAndAChildAreWaitedOn) {
  const std::string path = testing::TempDir() + "/thread_wait_lock";
  std::ofstream(path) << "x";
  const int held = open(path.c_str(), O_RDONLY);
  ASSERT_EQ(flock(held, LOCK_EX), 0);
  BlockedChild locker([&] {
    const int fd = open(path.c_str(), O_RDONLY);
    flock(fd, LOCK_EX);
    for (;;) pause();
  });
  BlockedChild parent([] {
    const pid_t grandchild = fork();
    if (grandchild == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // ends with the child the test kills
      for (;;) pause();
    }
    waitpid(grandchild, nullptr, 0);
  });
  const auto lock = settled_wait(locker.pid(), locker.pid(), WaitKind::Lock);
  const auto child = settled_wait(parent.pid(), parent.pid(), WaitKind::Local);
  close(held);
  ASSERT_TRUE(lock);
  EXPECT_EQ(lock->kind, WaitKind::Lock) << lock->detail;
  ASSERT_TRUE(child);
  EXPECT_EQ(child->kind, WaitKind::Local) << child->detail;
  EXPECT_NE(child->detail.find("child process"), std::string::npos) << child->detail;
}

TEST(ThreadWait, ARunningThreadWaitsOnNothing) { EXPECT_FALSE(thread_wait("/proc", getpid(), getpid(), 'R')); }

// A made-up /proc: PID 42's thread 42 in `call` (the syscall file's text), with descriptor 3 linked to `target`.
std::string fake_proc(const std::string& call, const std::string& target) {
  const std::filesystem::path root = testing::TempDir() + "/thread_wait_proc_" + std::to_string(getpid());
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / "42/task/42");
  std::filesystem::create_directories(root / "42/fd");
  std::ofstream(root / "42/task/42/syscall") << call << "\n";
  std::filesystem::create_symlink(target, root / "42/fd/3");
  return root.string();
}

TEST(ThreadWait, UninterruptibleSleepIsStorage) {
#if defined(__x86_64__)
  const std::string read_of_fd_3 = "0 0x3 0x7f0000000000 0x2000000 0x0 0x0 0x0 0x7ffc0000 0x7f0000001000";
#elif defined(__aarch64__)
  const std::string read_of_fd_3 = "63 0x3 0x7f0000000000 0x2000000 0x0 0x0 0x0 0x7ffc0000 0x7f0000001000";
#else
  GTEST_SKIP() << "system call numbers are known on x86-64 and AArch64 only";
#endif
  const std::string file = fake_proc(read_of_fd_3, "/data/shard-7.bin");
  const auto reading = thread_wait(file, 42, 42, 'D');
  ASSERT_TRUE(reading);
  EXPECT_EQ(reading->kind, WaitKind::Disk);
  EXPECT_EQ(reading->detail, "read() on /data/shard-7.bin");
  const std::string fault = fake_proc("-1 0x7ffc0000 0x7f0000001000", "/data/shard-7.bin");
  const auto faulting = thread_wait(fault, 42, 42, 'D');
  ASSERT_TRUE(faulting);
  EXPECT_EQ(faulting->kind, WaitKind::Disk);
  EXPECT_NE(faulting->detail.find("page fault"), std::string::npos) << faulting->detail;
  std::filesystem::remove_all(file);
}

TEST(ThreadWait, KindsReadBackByName) {
  for (WaitKind kind : {WaitKind::Disk, WaitKind::Network, WaitKind::Sleep, WaitKind::Lock, WaitKind::Gpu,
                        WaitKind::Local, WaitKind::Other}) {
    EXPECT_EQ(wait_kind_from_name(wait_kind_name(kind)), kind);
  }
  EXPECT_FALSE(wait_kind_from_name("idle"));
}

}  // namespace
}  // namespace gpubench
