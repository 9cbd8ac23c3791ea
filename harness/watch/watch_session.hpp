#pragma once
// The sampling loop of `gpubench watch`: at every tick (1 s by default) one sample of each watched GPU (GpuSampler)
// and one of the job's processes on the host (JobHostSampler), until the job ends, or for --duration, until the time
// is up or watch is asked to stop. It runs in the watch process, sleeping between ticks: the job's own processes do
// no work for it. It also tells which GPUs the job used: those where NVML lists a process of the job's tree
// (nvmlDeviceGetComputeRunningProcesses) at some sample, or for --duration any compute process.
#include <nvml.h>
#include <sys/types.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/watch/watch_document.hpp"
#include "harness/watch/watch_timeline.hpp"

namespace gpubench {

class NvmlLibrary;
class GpuSampler;
class JobHostSampler;
class WatchedChild;

struct WatchGpuTarget {
  int index = 0;  // CUDA index
  nvmlDevice_t device = nullptr;
};

class WatchSession {
 public:
  // `nvml` may be null: then no GPU is sampled, the timeline holds host samples only, and `gpu_unavailable` says
  // why. Each GPU's sampler is made here, before the job starts, so that the first sample is the job's first second.
  WatchSession(const NvmlLibrary* nvml, std::string gpu_unavailable, const std::vector<WatchGpuTarget>& gpus,
               double interval_s, std::vector<std::string> command);
  ~WatchSession();
  WatchSession(const WatchSession&) = delete;
  WatchSession& operator=(const WatchSession&) = delete;

  // Samples until `job` ends; without a job, until `duration_s` has passed or watch received a stop signal.
  // `after_sample` (may be empty) runs after every tick, with the timeline so far.
  void run(WatchedChild* job, std::optional<double> duration_s, const std::function<void()>& after_sample);

  const WatchTimeline& timeline() const { return timeline_; }
  const std::vector<WatchedGpuIdentity>& identities() const { return identities_; }
  // By CUDA index, why GPM's fields are absent, as the samplers know it now (a metric may first fail in a sample).
  std::map<int, std::string> gpm_unavailable() const;
  const std::string& gpu_unavailable() const { return gpu_unavailable_; }
  // The GPUs a process of the job (for --duration: any compute process) was seen on, by CUDA index.
  const std::set<int>& gpus_with_job() const { return gpus_with_job_; }
  double elapsed_s() const { return elapsed_s_; }

 private:
  void take_sample(double t_s, pid_t job, bool any_process);

  struct Gpu;
  const NvmlLibrary* nvml_;
  std::string gpu_unavailable_;
  std::vector<std::unique_ptr<Gpu>> gpus_;
  std::unique_ptr<JobHostSampler> host_;
  WatchTimeline timeline_;
  std::vector<WatchedGpuIdentity> identities_;
  std::set<int> gpus_with_job_;
  std::vector<pid_t> host_roots_;
  bool first_host_sample_ = true;
  double elapsed_s_ = 0;
};

// Whether `pid` is `root` or descends from it, by the parent links in `proc_root`/PID/stat. Exposed for the tests.
bool descends_from(pid_t pid, pid_t root, const std::string& proc_root = "/proc");

}  // namespace gpubench
