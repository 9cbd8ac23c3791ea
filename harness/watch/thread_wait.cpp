#include "harness/watch/thread_wait.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "harness/watch/proc_text.hpp"

namespace gpubench {
namespace {

// How a blocking system call tells what it waits on.
enum class Reads {
  Sleep,       // it is a sleep
  Lock,        // it is a lock
  Descriptor,  // its first argument is a file descriptor: what that is tells
  Poll,        // poll/ppoll: an array of {fd, events, revents} at the first argument, its length the second
  Select,      // select/pselect6: the highest descriptor + 1, then bit sets for reading and writing
  Epoll,       // epoll_wait and kin: the epoll descriptor, whose fdinfo lists the descriptors it watches
  AsyncIo,     // waiting for asynchronous I/O to complete: storage
  Child,       // waiting for a child process
};

struct BlockingCall {
  long number;
  const char* name;
  Reads reads;
};

// The calls a blocked thread is found in, by number. Those not listed are "other", named by number.
#if defined(__x86_64__)
constexpr BlockingCall kCalls[] = {
    {0, "read", Reads::Descriptor},       {1, "write", Reads::Descriptor},       {7, "poll", Reads::Poll},
    {16, "ioctl", Reads::Descriptor},     {17, "pread64", Reads::Descriptor},    {18, "pwrite64", Reads::Descriptor},
    {19, "readv", Reads::Descriptor},     {20, "writev", Reads::Descriptor},     {23, "select", Reads::Select},
    {34, "pause", Reads::Sleep},          {35, "nanosleep", Reads::Sleep},       {40, "sendfile", Reads::Descriptor},
    {42, "connect", Reads::Descriptor},   {43, "accept", Reads::Descriptor},     {44, "sendto", Reads::Descriptor},
    {45, "recvfrom", Reads::Descriptor},  {46, "sendmsg", Reads::Descriptor},    {47, "recvmsg", Reads::Descriptor},
    {61, "wait4", Reads::Child},          {65, "semop", Reads::Lock},            {70, "msgrcv", Reads::Lock},
    {72, "fcntl", Reads::Lock},           {73, "flock", Reads::Lock},            {74, "fsync", Reads::Descriptor},
    {75, "fdatasync", Reads::Descriptor}, {202, "futex", Reads::Lock},           {208, "io_getevents", Reads::AsyncIo},
    {220, "semtimedop", Reads::Lock},     {230, "clock_nanosleep", Reads::Sleep}, {232, "epoll_wait", Reads::Epoll},
    {247, "waitid", Reads::Child},        {270, "pselect6", Reads::Select},      {271, "ppoll", Reads::Poll},
    {281, "epoll_pwait", Reads::Epoll},   {288, "accept4", Reads::Descriptor},   {295, "preadv", Reads::Descriptor},
    {296, "pwritev", Reads::Descriptor},  {299, "recvmmsg", Reads::Descriptor},  {327, "preadv2", Reads::Descriptor},
    {328, "pwritev2", Reads::Descriptor}, {333, "io_pgetevents", Reads::AsyncIo}, {426, "io_uring_enter", Reads::AsyncIo},
    {441, "epoll_pwait2", Reads::Epoll},  {449, "futex_waitv", Reads::Lock},
};
#elif defined(__aarch64__)
constexpr BlockingCall kCalls[] = {
    {4, "io_getevents", Reads::AsyncIo},  {22, "epoll_pwait", Reads::Epoll},     {25, "fcntl", Reads::Lock},
    {29, "ioctl", Reads::Descriptor},     {32, "flock", Reads::Lock},            {63, "read", Reads::Descriptor},
    {64, "write", Reads::Descriptor},     {65, "readv", Reads::Descriptor},      {66, "writev", Reads::Descriptor},
    {67, "pread64", Reads::Descriptor},   {68, "pwrite64", Reads::Descriptor},   {69, "preadv", Reads::Descriptor},
    {70, "pwritev", Reads::Descriptor},   {71, "sendfile", Reads::Descriptor},   {72, "pselect6", Reads::Select},
    {73, "ppoll", Reads::Poll},           {82, "fsync", Reads::Descriptor},      {83, "fdatasync", Reads::Descriptor},
    {95, "waitid", Reads::Child},         {98, "futex", Reads::Lock},            {101, "nanosleep", Reads::Sleep},
    {115, "clock_nanosleep", Reads::Sleep}, {188, "msgrcv", Reads::Lock},        {192, "semtimedop", Reads::Lock},
    {193, "semop", Reads::Lock},          {202, "accept", Reads::Descriptor},    {203, "connect", Reads::Descriptor},
    {206, "sendto", Reads::Descriptor},   {207, "recvfrom", Reads::Descriptor},  {211, "sendmsg", Reads::Descriptor},
    {212, "recvmsg", Reads::Descriptor},  {242, "accept4", Reads::Descriptor},   {243, "recvmmsg", Reads::Descriptor},
    {260, "wait4", Reads::Child},         {286, "preadv2", Reads::Descriptor},   {287, "pwritev2", Reads::Descriptor},
    {292, "io_pgetevents", Reads::AsyncIo}, {426, "io_uring_enter", Reads::AsyncIo}, {441, "epoll_pwait2", Reads::Epoll},
    {449, "futex_waitv", Reads::Lock},
};
#else
constexpr BlockingCall kCalls[] = {{-1, "", Reads::Sleep}};  // numbers unknown here: never matched
#endif

const BlockingCall* blocking_call(long number) {
  for (const BlockingCall& call : kCalls) {
    if (call.number == number) return &call;
  }
  return nullptr;
}

// /proc/PID/task/TID/syscall: "NR ARG1 ... ARG6 SP PC" (arguments in hex), "-1 SP PC" when blocked outside a
// system call, "running" when running.
struct SyscallLine {
  long number = -1;
  std::vector<std::uint64_t> args;
};

std::optional<SyscallLine> read_syscall(const std::string& path) {
  std::istringstream in(read_proc_text(path));
  std::string first;
  if (!(in >> first) || first == "running") return std::nullopt;
  SyscallLine line;
  char* end = nullptr;
  line.number = std::strtol(first.c_str(), &end, 10);
  if (end == first.c_str()) return std::nullopt;
  for (std::string word; in >> word;) line.args.push_back(std::strtoull(word.c_str(), nullptr, 16));
  return line;
}

// What the job's network namespace says of a socket inode: "TCP 10.0.0.5:9000" (the peer, or the local port of a
// listening socket), or "" when it is no TCP or UDP socket (a Unix or netlink socket).
std::string internet_socket(const std::string& process, const std::string& inode) {
  for (const char* table : {"tcp", "udp", "tcp6", "udp6"}) {
    std::istringstream in(read_proc_text(process + "/net/" + table));
    std::string line;
    std::getline(in, line);  // the heading
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, node;
      if (!(fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >> timeout >> node) ||
          node != inode) {
        continue;
      }
      std::string protocol = table;
      const bool v6 = protocol.back() == '6';
      if (v6) protocol.pop_back();
      for (char& c : protocol) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      // An unconnected peer (all zeros) is a listening or unconnected socket: name the local port instead.
      const bool listening = remote.find_first_not_of("0:") == std::string::npos;
      const std::string& end_point = listening ? local : remote;
      const std::size_t colon = end_point.find(':');
      const unsigned long port = std::strtoul(end_point.c_str() + colon + 1, nullptr, 16);
      std::string address = "(IPv6)";
      if (!v6 && colon == 8) {
        // The kernel prints the address as a 32-bit number in host order: on a little-endian host its bytes read
        // backwards.
        const std::uint32_t a = static_cast<std::uint32_t>(std::strtoul(end_point.substr(0, 8).c_str(), nullptr, 16));
        const unsigned char* b = reinterpret_cast<const unsigned char*>(&a);
        address = std::to_string(b[0]) + "." + std::to_string(b[1]) + "." + std::to_string(b[2]) + "." +
                  std::to_string(b[3]);
      }
      return protocol + (listening ? " port " + std::to_string(port) + " (listening)"
                                   : " " + address + ":" + std::to_string(port));
    }
  }
  return "";
}

// What a file descriptor of the job is, read from its /proc/PID/fd link.
ThreadWait descriptor_wait(const std::string& process, std::uint64_t fd) {
  char target[512];
  const std::string link = process + "/fd/" + std::to_string(fd);
  const ssize_t length = readlink(link.c_str(), target, sizeof target - 1);
  if (length <= 0) return {WaitKind::Other, "descriptor " + std::to_string(fd)};
  const std::string what(target, static_cast<std::size_t>(length));
  const auto starts = [&](const char* prefix) { return what.rfind(prefix, 0) == 0; };
  if (starts("socket:[")) {
    const std::string inode = what.substr(8, what.size() - 9);
    const std::string internet = internet_socket(process, inode);
    if (!internet.empty()) return {WaitKind::Network, internet};
    return {WaitKind::Local, "a local (Unix) socket"};
  }
  if (starts("pipe:[")) return {WaitKind::Local, "a pipe"};
  if (starts("anon_inode:")) return {WaitKind::Local, what.substr(11)};
  if (starts("/dev/nvidia")) return {WaitKind::Gpu, what};
  if (starts("/dev/")) return {WaitKind::Other, what};
  return {WaitKind::Disk, what};
}

// The most telling of several descriptors' waits (WaitKind's order); Sleep when there are none.
ThreadWait most_telling(const std::string& process, const std::vector<std::uint64_t>& fds, const std::string& call) {
  if (fds.empty()) return {WaitKind::Sleep, call + "() on no descriptor"};
  ThreadWait best{WaitKind::Other, ""};
  bool first = true;
  for (std::uint64_t fd : fds) {
    ThreadWait w = descriptor_wait(process, fd);
    if (first || static_cast<int>(w.kind) < static_cast<int>(best.kind)) best = std::move(w);
    first = false;
  }
  best.detail = call + "() on " + best.detail + (fds.size() > 1 ? " and " + std::to_string(fds.size() - 1) +
                                                                      " other descriptor(s)"
                                                                : "");
  return best;
}

// `size` bytes of the job's memory at `address`; empty when they cannot be read (ptrace's attach check failed).
std::string job_memory(const std::string& thread, std::uint64_t address, std::size_t size) {
  if (address == 0 || size == 0) return "";
  const int fd = open((thread + "/mem").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string bytes(size, '\0');
  const ssize_t got = pread(fd, bytes.data(), size, static_cast<off_t>(address));
  close(fd);
  if (got != static_cast<ssize_t>(size)) return "";
  return bytes;
}

constexpr std::size_t kMostDescriptorsRead = 64;  // a poll on more than this is read for its first 64

ThreadWait poll_wait(const std::string& process, const std::string& thread, const SyscallLine& call,
                     const std::string& name) {
  if (call.args.size() < 2) return {WaitKind::Other, name + "()"};
  const std::size_t count = static_cast<std::size_t>(call.args[1]);
  if (count == 0) return {WaitKind::Sleep, name + "() on no descriptor"};
  struct PollEntry {
    std::int32_t fd;
    std::int16_t events, revents;
  };
  const std::size_t read = std::min(count, kMostDescriptorsRead);
  const std::string bytes = job_memory(thread, call.args[0], read * sizeof(PollEntry));
  if (bytes.empty()) return {WaitKind::Other, name + "() on " + std::to_string(count) + " descriptor(s) not readable"};
  std::vector<std::uint64_t> fds;
  for (std::size_t i = 0; i < read; ++i) {
    PollEntry entry;
    std::copy_n(bytes.data() + i * sizeof entry, sizeof entry, reinterpret_cast<char*>(&entry));
    if (entry.fd >= 0) fds.push_back(static_cast<std::uint64_t>(entry.fd));
  }
  return most_telling(process, fds, name);
}

ThreadWait select_wait(const std::string& process, const std::string& thread, const SyscallLine& call,
                       const std::string& name) {
  if (call.args.size() < 3) return {WaitKind::Other, name + "()"};
  const std::size_t highest = std::min<std::uint64_t>(call.args[0], 1024);
  std::vector<std::uint64_t> fds;
  for (std::size_t set = 1; set <= 2; ++set) {  // the descriptors to read and to write
    const std::string bits = job_memory(thread, call.args[set], (highest + 7) / 8);
    for (std::size_t fd = 0; fd < highest && !bits.empty(); ++fd) {
      if ((static_cast<unsigned char>(bits[fd / 8]) >> (fd % 8)) & 1) fds.push_back(fd);
    }
  }
  return most_telling(process, fds, name);
}

ThreadWait epoll_wait(const std::string& process, const SyscallLine& call, const std::string& name) {
  if (call.args.empty()) return {WaitKind::Other, name + "()"};
  std::istringstream in(read_proc_text(process + "/fdinfo/" + std::to_string(call.args[0])));
  std::vector<std::uint64_t> fds;
  for (std::string word; in >> word && fds.size() < kMostDescriptorsRead;) {
    if (word != "tfd:") continue;
    std::uint64_t fd = 0;
    if (in >> fd) fds.push_back(fd);
  }
  return most_telling(process, fds, name);
}

}  // namespace

const char* wait_kind_name(WaitKind kind) {
  switch (kind) {
    case WaitKind::Disk: return "disk";
    case WaitKind::Network: return "network";
    case WaitKind::Sleep: return "sleep";
    case WaitKind::Lock: return "lock";
    case WaitKind::Gpu: return "gpu";
    case WaitKind::Local: return "local";
    case WaitKind::Other: return "other";
  }
  return "other";
}

std::optional<WaitKind> wait_kind_from_name(const std::string& name) {
  for (WaitKind kind : {WaitKind::Disk, WaitKind::Network, WaitKind::Sleep, WaitKind::Lock, WaitKind::Gpu,
                        WaitKind::Local, WaitKind::Other}) {
    if (name == wait_kind_name(kind)) return kind;
  }
  return std::nullopt;
}

std::optional<ThreadWait> thread_wait(const std::string& proc_root, pid_t pid, pid_t tid, char state) {
  // S: interruptible sleep, D: uninterruptible (disk), I: idle kernel thread; R, T, t, Z, X are no wait.
  if (state != 'S' && state != 'D') return std::nullopt;
  const std::string process = proc_root + "/" + std::to_string(pid);
  const std::string thread = process + "/task/" + std::to_string(tid);
  const std::optional<SyscallLine> call = read_syscall(thread + "/syscall");
  const BlockingCall* known = call ? blocking_call(call->number) : nullptr;
  if (!known) {
    if (state == 'D') {
      return ThreadWait{WaitKind::Disk, call && call->number < 0 ? "uninterruptible outside a system call (a page "
                                                                   "fault on a mapped file)"
                                                                 : "uninterruptible (state D)"};
    }
    return ThreadWait{WaitKind::Other, call ? "system call " + std::to_string(call->number) : "blocked"};
  }
  const std::string name = known->name;
  ThreadWait wait;
  switch (known->reads) {
    case Reads::Sleep: wait = {WaitKind::Sleep, name + "()"}; break;
    case Reads::Lock: wait = {WaitKind::Lock, name + "()"}; break;
    case Reads::AsyncIo: wait = {WaitKind::Disk, name + "() (asynchronous I/O)"}; break;
    case Reads::Child: wait = {WaitKind::Local, name + "() for a child process"}; break;
    case Reads::Poll: wait = poll_wait(process, thread, *call, name); break;
    case Reads::Select: wait = select_wait(process, thread, *call, name); break;
    case Reads::Epoll: wait = epoll_wait(process, *call, name); break;
    case Reads::Descriptor:
      if (call->args.empty()) {
        wait = {WaitKind::Other, name + "()"};
      } else {
        wait = descriptor_wait(process, call->args[0]);
        wait.detail = name + "() on " + wait.detail;
      }
      break;
  }
  // Uninterruptible sleep in a call on a file is storage whatever the descriptor looked like (a FUSE or NFS mount);
  // the network and the GPU's driver keep their own names.
  if (state == 'D' && wait.kind != WaitKind::Network && wait.kind != WaitKind::Gpu) wait.kind = WaitKind::Disk;
  return wait;
}

}  // namespace gpubench
