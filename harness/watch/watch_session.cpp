#include "harness/watch/watch_session.hpp"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

#include "benchmarks/common/nvml_library.hpp"
#include "harness/watch/gpu_sampler.hpp"
#include "harness/watch/job_host_sampler.hpp"
#include "harness/watch/watched_child.hpp"

namespace gpubench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The parent of `pid` from PROC/PID/stat ("PID (comm) S PPID ..."; comm may hold spaces and parentheses, so the
// fields are read after the last ')'). 0 when unreadable.
pid_t parent_of(pid_t pid, const std::string& proc_root) {
  std::ifstream in(proc_root + "/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 1));
  std::string state;
  long long parent = 0;
  if (!(fields >> state >> parent)) return 0;
  return static_cast<pid_t>(parent);
}

// The compute processes NVML lists on `device` (empty when it cannot say).
std::vector<pid_t> compute_processes(const NvmlLibrary& nvml, nvmlDevice_t device) {
  if (nvml.nvmlDeviceGetComputeRunningProcesses_ == nullptr) return {};
  std::vector<nvmlProcessInfo_t> infos(32);
  for (int attempt = 0; attempt < 4; ++attempt) {
    unsigned count = static_cast<unsigned>(infos.size());
    const nvmlReturn_t status = nvml.nvmlDeviceGetComputeRunningProcesses_(device, &count, infos.data());
    if (status == NVML_ERROR_INSUFFICIENT_SIZE) {
      infos.resize(count + 32);
      continue;
    }
    if (status != NVML_SUCCESS) return {};
    std::vector<pid_t> pids;
    for (unsigned i = 0; i < count && i < infos.size(); ++i) {
      if (infos[i].pid != 0 && infos[i].pid != static_cast<unsigned>(getpid())) pids.push_back(static_cast<pid_t>(infos[i].pid));
    }
    return pids;
  }
  return {};
}

// Sleeps `seconds` in slices of at most 0.1 s, returning early once watch has a stop signal.
void sleep_unless_stopped(double seconds) {
  const auto until = Clock::now() + std::chrono::duration<double>(seconds);
  while (watch_stop_signal() == 0) {
    const double left = std::chrono::duration<double>(until - Clock::now()).count();
    if (left <= 0) return;
    const double step = std::min(left, 0.1);
    timespec pause{static_cast<time_t>(step), static_cast<long>((step - std::floor(step)) * 1e9)};
    nanosleep(&pause, nullptr);
  }
}

}  // namespace

bool descends_from(pid_t pid, pid_t root, const std::string& proc_root) {
  for (int depth = 0; depth < 64 && pid > 1; ++depth) {
    if (pid == root) return true;
    pid = parent_of(pid, proc_root);
  }
  return pid == root && root > 0;
}

struct WatchSession::Gpu {
  int index = 0;
  nvmlDevice_t device = nullptr;
  std::unique_ptr<GpuSampler> sampler;
  std::size_t timeline_slot = 0;  // its place in timeline_.gpus
};

WatchSession::WatchSession(const NvmlLibrary* nvml, std::string gpu_unavailable,
                           const std::vector<WatchGpuTarget>& gpus, double interval_s,
                           std::vector<std::string> command)
    : nvml_(nvml), gpu_unavailable_(std::move(gpu_unavailable)), host_(std::make_unique<JobHostSampler>(std::vector<pid_t>{})) {
  timeline_.command = std::move(command);
  timeline_.interval_s = interval_s;
  if (nvml_ == nullptr) return;
  for (const WatchGpuTarget& target : gpus) {
    auto gpu = std::make_unique<Gpu>();
    gpu->index = target.index;
    gpu->device = target.device;
    try {
      gpu->sampler = std::make_unique<GpuSampler>(*nvml_, target.index, target.device);
      GpuTimeline described = gpu->sampler->describe();
      described.index = target.index;
      described.samples.clear();
      gpu->timeline_slot = timeline_.gpus.size();
      timeline_.gpus.push_back(std::move(described));
    } catch (const std::exception& error) {
      std::cerr << "gpubench: watch: GPU " << target.index << " is not sampled: " << error.what() << "\n";
      continue;
    }
    WatchedGpuIdentity identity;
    identity.index = target.index;
    char uuid[NVML_DEVICE_UUID_V2_BUFFER_SIZE] = {};
    if (nvml_->nvmlDeviceGetUUID_ && nvml_->nvmlDeviceGetUUID_(target.device, uuid, sizeof uuid) == NVML_SUCCESS) {
      identity.uuid = uuid;
    }
    nvmlPciInfo_t pci{};
    if (nvml_->nvmlDeviceGetPciInfo_ && nvml_->nvmlDeviceGetPciInfo_(target.device, &pci) == NVML_SUCCESS) {
      identity.pci_bus_id = pci.busId;
    }
    identities_.push_back(identity);
    gpus_.push_back(std::move(gpu));
  }
  if (gpus_.empty() && gpu_unavailable_.empty()) gpu_unavailable_ = "no GPU could be sampled";
}

WatchSession::~WatchSession() = default;

std::map<int, std::string> WatchSession::gpm_unavailable() const {
  std::map<int, std::string> why;
  for (const std::unique_ptr<Gpu>& gpu : gpus_) {
    if (!gpu->sampler->gpm_unavailable().empty()) why[gpu->index] = gpu->sampler->gpm_unavailable();
  }
  return why;
}

void WatchSession::take_sample(double t_s, pid_t job, bool any_process) {
  std::vector<pid_t> seen;  // for --duration: every compute process on the watched GPUs
  for (const std::unique_ptr<Gpu>& gpu : gpus_) {
    GpuTimeline& series = timeline_.gpus[gpu->timeline_slot];
    series.samples.push_back(gpu->sampler->sample(t_s));
    for (WatchEvent& event : gpu->sampler->take_events(t_s)) {
      event.gpu = gpu->index;
      timeline_.events.push_back(std::move(event));
    }
    if (!any_process && gpus_with_job_.count(gpu->index) > 0) continue;  // the job was seen there already
    for (pid_t pid : compute_processes(*nvml_, gpu->device)) {
      if (any_process || descends_from(pid, job)) {
        gpus_with_job_.insert(gpu->index);
        if (!any_process) break;
        if (std::find(seen.begin(), seen.end(), pid) == seen.end()) seen.push_back(pid);
      }
    }
  }
  if (any_process) {
    std::sort(seen.begin(), seen.end());
    if (seen != host_roots_) {
      host_roots_ = seen;
      host_->set_roots(host_roots_);
    }
  }
  if (!host_roots_.empty()) {
    const HostSample host = host_->sample(t_s);
    // The first only takes the starting counts (its rates are zeros): it is not the job's.
    if (first_host_sample_) {
      first_host_sample_ = false;
    } else {
      timeline_.host.push_back(host);
    }
    if (timeline_.cpus_allowed <= 0) timeline_.cpus_allowed = host_->cpus_allowed();
  }
}

void WatchSession::run(WatchedChild* job, std::optional<double> duration_s, const std::function<void()>& after_sample) {
  const Clock::time_point start = Clock::now();
  const double interval = timeline_.interval_s;
  if (job != nullptr) {
    host_roots_ = {job->pid()};
    host_->set_roots(host_roots_);
  }
  for (long long tick = 0;; ++tick) {
    elapsed_s_ = seconds_since(start);
    take_sample(elapsed_s_, job != nullptr ? job->pid() : 0, job == nullptr);
    if (after_sample) after_sample();
    if (job != nullptr && job->wait_for_end(0)) break;
    if (job == nullptr && (watch_stop_signal() != 0 || (duration_s && elapsed_s_ >= *duration_s - 1e-3))) break;
    // The next tick on the grid; one missed (a slow sample) is skipped, not made up.
    const double now = seconds_since(start);
    tick = std::max<long long>(tick, static_cast<long long>(std::floor(now / interval)));
    double next = (tick + 1) * interval;
    if (duration_s) next = std::min(next, *duration_s);
    if (job != nullptr) {
      bool ended = false;
      for (double left = next - seconds_since(start); left > 0; left = next - seconds_since(start)) {
        if ((ended = job->wait_for_end(left))) break;  // a signal ends the wait early; the job's end is awaited
      }
      if (ended) break;
    } else {
      sleep_unless_stopped(next - seconds_since(start));
    }
  }
  elapsed_s_ = seconds_since(start);
}

}  // namespace gpubench
