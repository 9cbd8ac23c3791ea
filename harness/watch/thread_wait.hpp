#pragma once
// What a thread of the watched job is blocked on, read from /proc alone, so that a GPU left idle by a job whose CPU
// is idle too can be blamed on what the job waited for: storage, the network, a sleep, a lock. No privileges beyond
// those watch has over its own job (it is the job's parent, so ptrace's "read" and "attach" checks pass):
//   - the thread's state (field 3 of /proc/PID/task/TID/stat): D, uninterruptible, is almost always block I/O;
//   - the system call it is blocked in, with its arguments (/proc/PID/task/TID/syscall, proc(5));
//   - what the call's file descriptor is (/proc/PID/fd/N: a file, a pipe, a socket, a GPU device), and for a
//     socket whether it is TCP/UDP (the job's /proc/PID/net/{tcp,tcp6,udp,udp6}) or local (Unix, netlink);
//   - for poll/select, the descriptors it waits on, read from the job's memory (/proc/PID/mem); for epoll, the
//     descriptors registered with it (/proc/PID/fdinfo/EPFD).
// System call numbers differ between architectures: x86-64 and AArch64 are known; elsewhere only the state and
// "blocked" are told.
#include <sys/types.h>

#include <optional>
#include <string>

namespace gpubench {

// From most to least telling about why a job is slow. A job waits on several things at once (its main thread on
// a queue, a loader on a disk): the first kind in this order that one of its threads waits on says the most.
enum class WaitKind {
  Disk,     // a read or write of a file or block device, or uninterruptible sleep (state D)
  Network,  // a TCP or UDP socket: receiving, sending, connecting, accepting, or polling it
  Sleep,    // nanosleep/clock_nanosleep, or poll/select on no descriptor: a deliberate pause or a polling loop
  Lock,     // a futex (mutex, condition variable, semaphore, a queue's get), a file lock, a System V semaphore
  Gpu,      // the GPU's device files (/dev/nvidia*): a blocking synchronisation
  Local,    // a pipe, a Unix socket, an eventfd, or a child process: another process of this host
  Other,    // blocked in some other system call
};

const char* wait_kind_name(WaitKind kind);  // "disk", "network", "sleep", "lock", "gpu", "local", "other"
std::optional<WaitKind> wait_kind_from_name(const std::string& name);

struct ThreadWait {
  WaitKind kind = WaitKind::Other;
  std::string detail;  // the call and its target: "read() of /data/shard-3.bin", "recvfrom() on TCP 10.0.0.5:9000"
};

// What thread `tid` of process `pid` waits on, given its state letter from stat; nothing when it is running or
// runnable (R), stopped, a zombie, or gone. `proc_root` is "/proc" except in tests.
std::optional<ThreadWait> thread_wait(const std::string& proc_root, pid_t pid, pid_t tid, char state);

}  // namespace gpubench
