#pragma once
// What a job costs the host, from /proc: the CPU time of a set of processes and all their descendants, its
// busiest thread, and the share of time they waited on block I/O (delay accounting's blkio ticks, field 42 of
// /proc/PID/task/TID/stat, where the kernel keeps them). No daemon and no privileges beyond reading /proc.
//
// - Descendants: through /proc/PID/task/TID/children where the kernel has them (CONFIG_PROC_CHILDREN), otherwise
//   by reading the parent (field 4) of every /proc/N/stat.
// - Every thread counts: utime + stime (fields 14 and 15) of /proc/PID/task/TID/stat, in clock ticks
//   (sysconf(_SC_CLK_TCK)). The fields are read after the last ')', since a command name (field 2, in
//   parentheses) may hold spaces and ')'.
// - A thread not seen at the previous call counts from zero when it started after that call (its start time,
//   field 22, against PROC/uptime); one that ran before (a process that joined the roots later) only gives its
//   starting count. A thread that vanished is dropped, with whatever it used since the previous call.
// - I/O wait is known only where the kernel's delay accounting is on: PROC/sys/kernel/task_delayacct reads 1 (Linux
//   5.14 and later, where it is off by default: `sysctl kernel.task_delayacct=1` or the `delayacct` boot
//   argument); on older kernels it is on unless booted with `nodelayacct` (PROC/cmdline). Otherwise the kernel
//   leaves field 42 at 0, and HostSample::io_wait stays absent rather than claiming 0.
// - What the threads do now, which needs no delay accounting: how many run (state R), and what each working thread
//   (a process's main thread, one in state D, or one that ran since the previous call) is blocked on (thread_wait.hpp:
//   storage, the network, a sleep, a lock...). One look a sample: over a job's samples the shares tell.
// - Storage bytes per second from /proc/PID/io (read_bytes, write_bytes: what reached the block layer, not the
//   page cache), absent where that file cannot be read.
#include <sys/types.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/watch/watch_timeline.hpp"

namespace gpubench {

class JobHostSampler {
 public:
  // `proc_root` is "/proc" except in tests, which give a folder laid out like it.
  explicit JobHostSampler(std::vector<pid_t> roots, std::string proc_root = "/proc");

  // The processes to follow (with their descendants) from now on: the child of `watch -- COMMAND`, or the
  // processes NVML lists on the watched GPUs for `watch --duration`.
  void set_roots(std::vector<pid_t> roots);
  // Rates over the time since the previous call at `t_s`; the first call only takes the starting counts and
  // returns a sample of zeros.
  //   cpu_cores: the CPU time of all the threads per second of the interval.
  //   busiest_thread: the largest share of one core a single thread used (at most 1).
  //   io_wait: the largest share of the interval a single thread spent waiting on block I/O (at most 1); absent
  //   when delay accounting is off (io_wait_unavailable()). The busiest waiter rather than the sum over threads:
  //   the sum counts overlapping waits once per thread, so eight loader workers each blocked 10 % of the time
  //   would read 80 % (and any pool of many mostly-computing workers would saturate it), while the job had a
  //   thread blocked perhaps only a tenth of the time. The largest single share is a true share of the interval,
  //   a lower bound on the time some thread of the job waited, and it reads 100 % when every worker waits, as a
  //   person expects of a loader that waits on its disk.
  HostSample sample(double t_s);
  // How many cores the first root may run on (its affinity mask, Cpus_allowed_list); 0 when unreadable.
  int cpus_allowed() const;
  // Empty when the kernel keeps block I/O delays; otherwise why io_wait is absent ("the kernel's delay accounting
  // is off (kernel.task_delayacct = 0): ..."), as the last call to sample() found it.
  const std::string& io_wait_unavailable() const { return io_wait_unavailable_; }

 private:
  struct ThreadTimes {
    pid_t pid = 0;     // the process it belongs to
    char state = '?';  // field 3: R running, S sleeping, D uninterruptible (disk), ...
    double cpu_s = 0;
    double blkio_s = 0;
    unsigned long long start_ticks = 0;  // field 22: when the thread started, in ticks since boot
    unsigned long long switches = 0;     // voluntary and involuntary context switches so far (status)
  };
  std::map<pid_t, ThreadTimes> read_threads() const;  // every thread of the roots and their descendants, by tid
  std::vector<pid_t> job_processes() const;            // the roots and their descendants that still exist
  // Block I/O of a process (/proc/PID/io), to tell a job reading from storage from one waiting on something else.
  struct StorageBytes {
    double read = 0;
    double written = 0;
    unsigned long long start_ticks = 0;
  };
  std::map<pid_t, StorageBytes> read_storage(const std::map<pid_t, ThreadTimes>& threads) const;
  std::optional<double> storage_rate(double StorageBytes::*field, const std::map<pid_t, StorageBytes>& now,
                                     double elapsed_s) const;
  // How many threads run, and what the working ones wait on (thread_wait.hpp), now.
  HostSample::Threads thread_states(const std::map<pid_t, ThreadTimes>& threads) const;

  std::vector<pid_t> roots_;
  std::string proc_root_;
  std::map<pid_t, ThreadTimes> previous_;
  std::map<pid_t, StorageBytes> previous_storage_;
  double previous_t_s_ = -1;
  double previous_uptime_s_ = -1;  // PROC/uptime at the previous call; -1 when unread
  std::string io_wait_unavailable_;
};

}  // namespace gpubench
