// JobHostSampler on fake /proc trees written into a temporary folder: a root with a child and a grandchild, found
// through the `children` files and, without them, through every process's parent; threads with known clock ticks
// at two times give cpu_cores, busiest_thread and io_wait; a command name with spaces and ')'; a thread that
// vanished, one that started since the previous call and one that only joined it; delay accounting off; the
// affinity mask.
#include <gtest/gtest.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "harness/watch/job_host_sampler.hpp"

namespace gpubench {
namespace {

namespace fs = std::filesystem;

const double kHz = static_cast<double>(sysconf(_SC_CLK_TCK));

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct FakeThread {
  double cpu_s = 0;        // utime + stime, split between them
  double blkio_s = 0;      // delayacct_blkio_ticks
  double started_s = 500;  // since boot
};

struct FakeProcess {
  pid_t pid = 0;
  pid_t ppid = 1;
  std::string comm;
  std::map<pid_t, FakeThread> threads;
  std::vector<pid_t> children;
  std::string cpus_allowed_list = "0-15";
};

long long ticks(double seconds) { return static_cast<long long>(seconds * kHz + 0.5); }

// "PID (comm) S PPID ..." with the 52 fields of proc(5); utime/stime (14, 15), starttime (22) and
// delayacct_blkio_ticks (42) from `thread`.
std::string stat_line(pid_t id, const std::string& comm, pid_t ppid, const FakeThread& thread) {
  std::vector<std::string> fields(53, "0");
  fields[3] = "S";
  fields[4] = std::to_string(ppid);
  const long long cpu = ticks(thread.cpu_s);
  fields[14] = std::to_string(cpu - cpu / 3);
  fields[15] = std::to_string(cpu / 3);
  fields[22] = std::to_string(ticks(thread.started_s));
  fields[42] = std::to_string(ticks(thread.blkio_s));
  std::string line = std::to_string(id) + " (" + comm + ")";
  for (std::size_t i = 3; i < fields.size(); ++i) line += " " + fields[i];
  return line + "\n";
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

class FakeProc {
 public:
  FakeProc() {
    char pattern[] = "/tmp/gpubench_fake_proc_XXXXXX";
    root_ = mkdtemp(pattern);
  }
  ~FakeProc() { fs::remove_all(root_); }
  std::string root() const { return root_.string(); }

  // Writes the whole tree afresh: the processes, PROC/uptime and the delay accounting switch.
  void write_tree(const std::vector<FakeProcess>& processes, double uptime_s, bool children_files,
                  const std::string& task_delayacct = "1") {
    for (const auto& entry : fs::directory_iterator(root_)) fs::remove_all(entry.path());
    write(root_ / "uptime", std::to_string(uptime_s) + " 1234.00\n");
    if (!task_delayacct.empty()) write(root_ / "sys/kernel/task_delayacct", task_delayacct + "\n");
    for (const FakeProcess& p : processes) {
      const fs::path dir = root_ / std::to_string(p.pid);
      const FakeThread& leader = p.threads.count(p.pid) ? p.threads.at(p.pid) : FakeThread{};
      write(dir / "stat", stat_line(p.pid, p.comm, p.ppid, leader));
      write(dir / "status", "Name:\t" + p.comm + "\nCpus_allowed:\tffff\nCpus_allowed_list:\t" + p.cpus_allowed_list +
                                "\nMems_allowed_list:\t0\n");
      for (const auto& [tid, thread] : p.threads) {
        const fs::path task = dir / "task" / std::to_string(tid);
        write(task / "stat", stat_line(tid, p.comm, p.ppid, thread));
        if (children_files) {
          std::string list;
          if (tid == p.pid) {
            for (pid_t child : p.children) list += std::to_string(child) + " ";
          }
          write(task / "children", list);
        }
      }
    }
  }

 private:
  fs::path root_;
};

// python (100, threads 100 and 102) -> worker (101) -> grandchild (103, threads 103 and 104), beside an unrelated
// busy process (200). Command names with spaces and ')'.
std::vector<FakeProcess> job_at_first_sample() {
  FakeProcess root{100, 1, "python", {{100, {1.0}}, {102, {0.5}}}, {101}};
  FakeProcess child{101, 100, "pt_data_worker) 0 (x", {{101, {0.1}}}, {103}};
  FakeProcess grandchild{103, 101, "my ) proc", {{103, {0.0}}, {104, {0.05}}}, {}};
  FakeProcess other{200, 1, "other", {{200, {50}}}, {}};
  return {root, child, grandchild, other};
}

// Two seconds later: 100 used 1.6 s more, 101 0.5 s and waited 1.0 s on I/O, 103 0.3 s and waited 1.4 s, 104 0.2 s;
// thread 102 vanished; 105 started since (at 1001 s, counted from zero: 0.4 s); 106 appeared but started before
// the first sample (a thread the first listing missed: only its starting count); 200 kept busy.
std::vector<FakeProcess> job_at_second_sample() {
  std::vector<FakeProcess> p = job_at_first_sample();
  p[0].threads = {{100, {2.6}}, {106, {30.0, 5.0, 900}}};
  p[1].threads = {{101, {0.6, 1.0}}};
  p[2].threads = {{103, {0.3, 1.4}}, {104, {0.25}}, {105, {0.4, 0.0, 1001}}};
  p[3].threads = {{200, {52}}};
  return p;
}

void expect_job_rates(bool children_files) {
  FakeProc proc;
  proc.write_tree(job_at_first_sample(), 1000.0, children_files);
  JobHostSampler sampler({100}, proc.root());
  const HostSample first = sampler.sample(10.0);
  EXPECT_EQ(first.t_s, 10.0);
  EXPECT_EQ(first.cpu_cores, 0.0);
  EXPECT_EQ(first.busiest_thread, 0.0);
  EXPECT_EQ(first.io_wait, 0.0);
  proc.write_tree(job_at_second_sample(), 1002.0, children_files);
  const HostSample second = sampler.sample(12.0);
  EXPECT_EQ(second.t_s, 12.0);
  // (1.6 + 0.5 + 0.3 + 0.2 + 0.4) s over 2 s; the tick rounding of the fake stat files is at most a tick a thread.
  const double tolerance = 6.0 / kHz;
  EXPECT_NEAR(second.cpu_cores, 1.5, tolerance);
  EXPECT_NEAR(second.busiest_thread, 0.8, tolerance);  // thread 100: 1.6 s of 2
  ASSERT_TRUE(second.io_wait);
  EXPECT_NEAR(*second.io_wait, 0.7, tolerance);  // thread 103's 1.4 s of 2, the most any thread waited
  EXPECT_TRUE(sampler.io_wait_unavailable().empty());
  EXPECT_EQ(sampler.cpus_allowed(), 16);
}

TEST(JobHostSampler, FollowsTheRootsDescendantsThroughTheChildrenFiles) { expect_job_rates(true); }

TEST(JobHostSampler, FollowsTheRootsDescendantsByTheirParentsWithoutChildrenFiles) { expect_job_rates(false); }

TEST(JobHostSampler, RatesAreCappedAtOneAndAReusedThreadIdCountsAsANewThread) {
  FakeProc proc;
  FakeProcess p{100, 1, "busy", {{100, {10.0}}, {101, {20.0, 0.0, 600}}}, {}};
  proc.write_tree({p}, 1000.0, true);
  JobHostSampler sampler({100}, proc.root());
  sampler.sample(0.0);
  // Thread 100 read 1.01 s of CPU in 1 s (a tick's rounding) and 3 s of I/O wait (impossible, but counters are
  // what they are): the shares stay at 1. Tid 101 now names another thread, started at 1000.5 s: counted from
  // zero, not against the old thread's 20 s.
  p.threads = {{100, {11.01, 3.0}}, {101, {0.2, 1.5, 1000.5}}};
  proc.write_tree({p}, 1001.0, true);
  const HostSample second = sampler.sample(1.0);
  EXPECT_NEAR(second.cpu_cores, 1.21, 2.0 / kHz);
  EXPECT_EQ(second.busiest_thread, 1.0);
  EXPECT_EQ(second.io_wait, 1.0);
}

TEST(JobHostSampler, NewRootsJoinWithTheirStartingCounts) {
  FakeProc proc;
  FakeProcess a{100, 1, "a", {{100, {1.0}}}, {}};
  FakeProcess b{200, 1, "b", {{200, {100.0}}}, {}};
  proc.write_tree({a, b}, 1000.0, false);
  JobHostSampler sampler({100}, proc.root());
  sampler.sample(0.0);
  sampler.set_roots({100, 200});
  a.threads = {{100, {1.5}}};
  b.threads = {{200, {101.0}}};
  proc.write_tree({a, b}, 1001.0, false);
  EXPECT_NEAR(sampler.sample(1.0).cpu_cores, 0.5, 2.0 / kHz);  // 200's lifetime is not this second's
  a.threads = {{100, {2.0}}};
  b.threads = {{200, {101.75}}};
  proc.write_tree({a, b}, 1002.0, false);
  EXPECT_NEAR(sampler.sample(2.0).cpu_cores, 1.25, 2.0 / kHz);
}

TEST(JobHostSampler, IoWaitIsAbsentWhenTheKernelKeepsNoDelays) {
  FakeProc proc;
  proc.write_tree(job_at_first_sample(), 1000.0, true, "0");
  JobHostSampler sampler({100}, proc.root());
  EXPECT_FALSE(sampler.sample(10.0).io_wait);
  proc.write_tree(job_at_second_sample(), 1002.0, true, "0");
  const HostSample second = sampler.sample(12.0);
  EXPECT_FALSE(second.io_wait);
  EXPECT_NEAR(second.cpu_cores, 1.5, 6.0 / kHz);  // the CPU figures do not depend on it
  EXPECT_NE(sampler.io_wait_unavailable().find("task_delayacct"), std::string::npos)
      << sampler.io_wait_unavailable();

  // An older kernel (no sysctl) keeps delays unless booted with nodelayacct.
  proc.write_tree(job_at_first_sample(), 1000.0, true, "");
  JobHostSampler older({100}, proc.root());
  EXPECT_TRUE(older.sample(0).io_wait);
  EXPECT_TRUE(older.io_wait_unavailable().empty());
  write(fs::path(proc.root()) / "cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 nodelayacct quiet\n");
  EXPECT_FALSE(older.sample(1).io_wait);
  EXPECT_NE(older.io_wait_unavailable().find("nodelayacct"), std::string::npos);
}

TEST(JobHostSampler, CpusAllowedCountsTheFirstRootsListAndIsZeroWhenUnreadable) {
  FakeProc proc;
  FakeProcess p{100, 1, "python", {{100, {1.0}}}, {}, "0-3,8,10-11"};
  FakeProcess q{200, 1, "other", {{200, {1.0}}}, {}, "0-63"};
  proc.write_tree({p, q}, 1000.0, true);
  EXPECT_EQ(JobHostSampler({100, 200}, proc.root()).cpus_allowed(), 7);
  EXPECT_EQ(JobHostSampler({300}, proc.root()).cpus_allowed(), 0);
  EXPECT_EQ(JobHostSampler({}, proc.root()).cpus_allowed(), 0);
}

TEST(JobHostSampler, AJobThatEndedGivesZerosAndTheRealProcFindsThisProcess) {
  FakeProc proc;
  proc.write_tree(job_at_first_sample(), 1000.0, true);
  JobHostSampler sampler({100}, proc.root());
  sampler.sample(0.0);
  proc.write_tree({}, 1001.0, true);
  const HostSample gone = sampler.sample(1.0);
  EXPECT_EQ(gone.cpu_cores, 0.0);
  EXPECT_EQ(gone.busiest_thread, 0.0);

  // This test process on the real /proc: it spins between two samples until its thread has had 300 ms of CPU,
  // and the sampler must see that share of the wall time. The share, not a fixed one: on a loaded machine (CI
  // builds beside the tests) the thread gets less than a whole core.
  JobHostSampler self({getpid()});
  self.sample(0.0);
  const auto start = std::chrono::steady_clock::now();
  const double cpu_at_start = thread_cpu_seconds();
  volatile double sink = 0;
  const auto give_up = start + std::chrono::seconds(20);
  while (thread_cpu_seconds() - cpu_at_start < 0.3 && std::chrono::steady_clock::now() < give_up) sink = sink + 1;
  const double spun = thread_cpu_seconds() - cpu_at_start;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const HostSample busy = self.sample(elapsed);
  // /proc counts in clock ticks (10 ms at 100 Hz): each of the two reads may be a tick short.
  const double slack = 0.03;
  EXPECT_GE(busy.busiest_thread, (spun - slack) / elapsed) << spun << " s of CPU in " << elapsed << " s";
  EXPECT_GE(busy.cpu_cores, (spun - slack) / elapsed) << spun << " s of CPU in " << elapsed << " s";
  EXPECT_GT(busy.busiest_thread, 0.0);
  EXPECT_LE(busy.busiest_thread, 1.0);
  EXPECT_GT(self.cpus_allowed(), 0);
}

}  // namespace
}  // namespace gpubench
