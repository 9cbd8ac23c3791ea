#include "harness/watch/job_host_sampler.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>
#include <sstream>

#include "harness/watch/proc_text.hpp"
#include "harness/watch/thread_wait.hpp"

namespace gpubench {
namespace {

bool exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

// The numeric entries of a folder (PIDs of PROC, TIDs of PROC/PID/task).
std::vector<pid_t> numeric_entries(const std::string& folder) {
  std::vector<pid_t> ids;
  DIR* dir = opendir(folder.c_str());
  if (dir == nullptr) return ids;
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.empty() || !std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isdigit(c); })) {
      continue;
    }
    ids.push_back(static_cast<pid_t>(std::strtol(name.c_str(), nullptr, 10)));
  }
  closedir(dir);
  std::sort(ids.begin(), ids.end());
  return ids;
}

constexpr std::size_t kState = 3 - 3;
constexpr std::size_t kPpid = 4 - 3;
constexpr std::size_t kUtime = 14 - 3;
constexpr std::size_t kStime = 15 - 3;
constexpr std::size_t kStartTime = 22 - 3;
constexpr std::size_t kBlkioTicks = 42 - 3;

unsigned long long number(const std::vector<std::string>& fields, std::size_t at) {
  return at < fields.size() ? std::strtoull(fields[at].c_str(), nullptr, 10) : 0;
}

// Context switches so far: voluntary (it blocked) and not (it was preempted), from a status file; 0 when unreadable.
unsigned long long context_switches(const std::string& status_path) {
  std::istringstream status(read_proc_text(status_path));
  unsigned long long total = 0;
  for (std::string line; std::getline(status, line);) {
    if (line.find("_ctxt_switches:") == std::string::npos) continue;
    total += std::strtoull(line.substr(line.find(':') + 1).c_str(), nullptr, 10);
  }
  return total;
}

double clock_ticks_per_second() {
  const long ticks = sysconf(_SC_CLK_TCK);
  return ticks > 0 ? static_cast<double>(ticks) : 100.0;
}

// Why the kernel keeps no block I/O delays, or "" when it does (see the header).
std::string delay_accounting_off(const std::string& proc_root) {
  const std::string sysctl = proc_root + "/sys/kernel/task_delayacct";
  if (exists(sysctl)) {
    const std::string value = read_proc_text(sysctl);
    if (value.empty() || value[0] != '0') return "";
    return "the kernel's delay accounting is off (kernel.task_delayacct = 0), so it keeps no block I/O wait: "
           "`sysctl -w kernel.task_delayacct=1` (root) or boot with `delayacct`";
  }
  std::istringstream cmdline(read_proc_text(proc_root + "/cmdline"));
  for (std::string word; cmdline >> word;) {
    if (word == "nodelayacct") return "the kernel was booted with nodelayacct, so it keeps no block I/O wait";
  }
  return "";
}

// The size of a CPU list as in Cpus_allowed_list: "0-3,8,10-11" -> 7.
int count_cpu_list(const std::string& list) {
  int count = 0;
  std::istringstream in(list);
  for (std::string range; std::getline(in, range, ',');) {
    range.erase(std::remove_if(range.begin(), range.end(), [](unsigned char c) { return std::isspace(c); }),
                range.end());
    if (range.empty()) continue;
    const std::size_t dash = range.find('-');
    char* end = nullptr;
    const long first = std::strtol(range.c_str(), &end, 10);
    if (end == range.c_str()) return 0;
    long last = first;
    if (dash != std::string::npos) {
      const char* from = range.c_str() + dash + 1;
      last = std::strtol(from, &end, 10);
      if (end == from) return 0;
    }
    if (last < first) return 0;
    count += static_cast<int>(last - first + 1);
  }
  return count;
}

}  // namespace

JobHostSampler::JobHostSampler(std::vector<pid_t> roots, std::string proc_root)
    : roots_(std::move(roots)), proc_root_(std::move(proc_root)) {}

void JobHostSampler::set_roots(std::vector<pid_t> roots) { roots_ = std::move(roots); }

std::vector<pid_t> JobHostSampler::job_processes() const {
  std::vector<pid_t> live_roots;
  for (pid_t root : roots_) {
    if (root > 0 && exists(proc_root_ + "/" + std::to_string(root) + "/stat")) live_roots.push_back(root);
  }
  if (live_roots.empty()) return {};
  // Children through the `children` files when the kernel has them (they list a thread's children; any thread
  // may have started a process), else from every process's parent.
  const std::string first_task = proc_root_ + "/" + std::to_string(live_roots[0]) + "/task/" +
                                 std::to_string(live_roots[0]) + "/children";
  const bool children_files = exists(first_task);
  std::multimap<pid_t, pid_t> children_by_parent;
  if (!children_files) {
    for (pid_t pid : numeric_entries(proc_root_)) {
      const std::vector<std::string> fields = stat_fields(read_proc_text(proc_root_ + "/" + std::to_string(pid) + "/stat"));
      if (fields.size() > kPpid) children_by_parent.emplace(static_cast<pid_t>(number(fields, kPpid)), pid);
    }
  }
  std::set<pid_t> seen;
  std::vector<pid_t> order;
  std::vector<pid_t> pending(live_roots.begin(), live_roots.end());
  while (!pending.empty()) {
    const pid_t pid = pending.back();
    pending.pop_back();
    if (!seen.insert(pid).second) continue;
    order.push_back(pid);
    if (children_files) {
      const std::string tasks = proc_root_ + "/" + std::to_string(pid) + "/task";
      for (pid_t tid : numeric_entries(tasks)) {
        std::istringstream list(read_proc_text(tasks + "/" + std::to_string(tid) + "/children"));
        for (long long child; list >> child;) pending.push_back(static_cast<pid_t>(child));
      }
    } else {
      const auto range = children_by_parent.equal_range(pid);
      for (auto it = range.first; it != range.second; ++it) pending.push_back(it->second);
    }
  }
  return order;
}

std::map<pid_t, JobHostSampler::ThreadTimes> JobHostSampler::read_threads() const {
  const double tick = 1.0 / clock_ticks_per_second();
  std::map<pid_t, ThreadTimes> threads;
  const auto add = [&](pid_t pid, pid_t tid, const std::string& folder) {
    const std::vector<std::string> fields = stat_fields(read_proc_text(folder + "/stat"));
    if (fields.size() <= kStime) return;  // gone between listing and reading
    ThreadTimes times;
    times.pid = pid;
    times.state = fields[kState].empty() ? '?' : fields[kState][0];
    times.cpu_s = static_cast<double>(number(fields, kUtime) + number(fields, kStime)) * tick;
    times.blkio_s = static_cast<double>(number(fields, kBlkioTicks)) * tick;
    times.start_ticks = number(fields, kStartTime);
    times.switches = context_switches(folder + "/status");
    threads[tid] = times;
  };
  for (pid_t pid : job_processes()) {
    const std::string process = proc_root_ + "/" + std::to_string(pid);
    const std::vector<pid_t> tids = numeric_entries(process + "/task");
    if (tids.empty()) {
      add(pid, pid, process);  // no task folder to read: the process as one thread
      continue;
    }
    for (pid_t tid : tids) add(pid, tid, process + "/task/" + std::to_string(tid));
  }
  return threads;
}

HostSample JobHostSampler::sample(double t_s) {
  HostSample out;
  out.t_s = t_s;
  io_wait_unavailable_ = delay_accounting_off(proc_root_);
  const bool io_known = io_wait_unavailable_.empty();
  // Uptime before the threads: a thread missing from this listing that started before it was read is not new.
  double uptime_s = -1;
  {
    std::istringstream uptime(read_proc_text(proc_root_ + "/uptime"));
    if (!(uptime >> uptime_s)) uptime_s = -1;
  }
  std::map<pid_t, ThreadTimes> now = read_threads();
  std::map<pid_t, StorageBytes> now_storage = read_storage(now);
  out.threads = thread_states(now);
  const double elapsed = t_s - previous_t_s_;
  if (previous_t_s_ >= 0 && elapsed > 0) {
    const double ticks_per_second = clock_ticks_per_second();
    double cpu = 0, busiest = 0, waiting = 0;
    for (const auto& [tid, times] : now) {
      ThreadTimes before;  // zeros: a thread that started since the previous call counts from zero
      const auto previous = previous_.find(tid);
      if (previous != previous_.end() && previous->second.start_ticks == times.start_ticks) {
        before = previous->second;
      } else {
        // Not seen before (or its tid now names another thread): counted from zero only when it started after
        // the previous call; a thread that was running before gives only its starting count.
        const bool started_since = previous_uptime_s_ >= 0 &&
                                   static_cast<double>(times.start_ticks) / ticks_per_second >= previous_uptime_s_;
        if (!started_since) continue;
      }
      const double thread_cpu = std::max(0.0, times.cpu_s - before.cpu_s);
      const double thread_wait = std::max(0.0, times.blkio_s - before.blkio_s);
      cpu += thread_cpu;
      busiest = std::max(busiest, thread_cpu);
      waiting = std::max(waiting, thread_wait);
    }
    out.storage_read_gbps = storage_rate(&StorageBytes::read, now_storage, elapsed);
    out.storage_write_gbps = storage_rate(&StorageBytes::written, now_storage, elapsed);
    out.cpu_cores = cpu / elapsed;
    // Clock ticks are coarse (10 ms at 100 Hz): a thread busy the whole interval may read a tick over it.
    out.busiest_thread = std::min(1.0, busiest / elapsed);
    if (io_known) out.io_wait = std::min(1.0, waiting / elapsed);
  } else if (io_known) {
    out.io_wait = 0.0;
  }
  previous_ = std::move(now);
  previous_storage_ = std::move(now_storage);
  previous_t_s_ = t_s;
  previous_uptime_s_ = uptime_s;
  return out;
}

HostSample::Threads JobHostSampler::thread_states(const std::map<pid_t, ThreadTimes>& threads) const {
  HostSample::Threads out;
  std::optional<ThreadWait> most_telling;
  for (const auto& [tid, times] : threads) {
    ++out.total;
    if (times.state == 'R') ++out.running;
    // Working: a process's main thread, a thread in uninterruptible sleep, or one that ran since the previous
    // sample (its context switches grew; CPU time cannot tell, as a thread that wakes for microseconds a few times a
    // second gathers no clock tick). A runtime's helper threads that block for good are left out.
    const auto before = previous_.find(tid);
    const bool ran = before == previous_.end() || before->second.start_ticks != times.start_ticks
                         ? times.switches > 0
                         : times.switches > before->second.switches;
    if (tid != times.pid && times.state != 'D' && !ran) continue;
    ++out.working;
    std::optional<ThreadWait> wait = thread_wait(proc_root_, times.pid, tid, times.state);
    if (!wait) continue;
    ++out.waits[wait_kind_name(wait->kind)];
    if (!most_telling || static_cast<int>(wait->kind) < static_cast<int>(most_telling->kind)) {
      most_telling = std::move(wait);
    }
  }
  if (most_telling) out.wait_detail = most_telling->detail;
  return out;
}

std::map<pid_t, JobHostSampler::StorageBytes> JobHostSampler::read_storage(
    const std::map<pid_t, ThreadTimes>& threads) const {
  std::map<pid_t, StorageBytes> out;
  for (const auto& [tid, times] : threads) {
    if (tid != times.pid) continue;  // one reading a process
    std::istringstream io(read_proc_text(proc_root_ + "/" + std::to_string(times.pid) + "/io"));
    StorageBytes bytes;
    bytes.start_ticks = times.start_ticks;
    int found = 0;
    for (std::string key; io >> key;) {
      double* field = key == "read_bytes:" ? &bytes.read : key == "write_bytes:" ? &bytes.written : nullptr;
      if (field != nullptr && io >> *field) ++found;
    }
    if (found == 2) out[times.pid] = bytes;
  }
  return out;
}

std::optional<double> JobHostSampler::storage_rate(double StorageBytes::*field,
                                                   const std::map<pid_t, StorageBytes>& now, double elapsed_s) const {
  if (now.empty()) return std::nullopt;  // /proc/PID/io unreadable (or no process left)
  double bytes = 0;
  for (const auto& [pid, counts] : now) {
    const auto before = previous_storage_.find(pid);
    // A process not seen before counts from zero only when it is new since the previous call (as threads do).
    if (before != previous_storage_.end() && before->second.start_ticks == counts.start_ticks) {
      bytes += std::max(0.0, counts.*field - before->second.*field);
    } else if (previous_uptime_s_ >= 0 &&
               static_cast<double>(counts.start_ticks) / clock_ticks_per_second() >= previous_uptime_s_) {
      bytes += counts.*field;
    }
  }
  return bytes / elapsed_s / 1e9;
}

int JobHostSampler::cpus_allowed() const {
  if (roots_.empty()) return 0;
  std::istringstream status(read_proc_text(proc_root_ + "/" + std::to_string(roots_[0]) + "/status"));
  const std::string key = "Cpus_allowed_list:";
  for (std::string line; std::getline(status, line);) {
    if (line.compare(0, key.size(), key) == 0) return count_cpu_list(line.substr(key.size()));
  }
  return 0;
}

}  // namespace gpubench
