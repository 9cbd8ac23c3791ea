// gpu_starved: the field guide's first symptom, a GPU idle most of the job's steady part while the host is the limit.
// The GPU's counters say that it waited; the job's host samples say on what:
//   - one thread at most of a core, with the job's CPU under one and a half cores: a host-bound loop, launching
//     kernels and synchronising (or preparing each batch itself);
//   - the job's CPU well over one core, or about one core spread over threads none of which fills it (threads
//     taking turns under Python's GIL): preprocessing on the CPU;
//   - the job's CPU mostly idle: it waits outside GPU and CPU, and its working threads' states and system calls
//     (thread_wait.hpp) say on what: storage, the network, a sleep, a lock, another local process.
// A sample in which the link ran at a ceiling is not idle (the copies explain it, and the link rules report them),
// nor is one in which kernels ran back to back (that is many_small_kernels).
#include <array>
#include <map>

#include "harness/watch/detail/rule_support.hpp"
#include "harness/watch/diagnosis_rules.hpp"
#include "harness/watch/gpu_activity.hpp"
#include "harness/watch/thread_wait.hpp"

namespace gpubench {
namespace {

using namespace watch_detail;

// The job's CPU counted as several threads' work: one and a half cores (own choice: more than one thread can give).
constexpr double kSeveralCores = 1.5;
// One thread counted as carrying the job, and a job counted as using the CPU at all: 0.6 of a core (own choice:
// most of the time, leaving room for a thread that also waits).
constexpr double kMostOfACore = 0.6;
// Whether the job waited on I/O, where the kernel's delay accounting tells: a fifth of the interval (own choice).
constexpr double kIoWaitHigh = 0.20;
// Kernels counted as short: utilisation at least twice SM activity (the running kernels kept under half the SMs
// busy on average) and at least 10 % (own choices).
constexpr double kShortKernelsRatio = 2.0;
constexpr double kSomeUtilization = 0.10;

enum class Cause { HostThread, CpuThreads, Waiting };

Cause host_cause(const HostSample& host, int cpus_allowed) {
  const bool all_cores = cpus_allowed > 0 && host.cpu_cores >= 0.9 * cpus_allowed;
  if (host.cpu_cores >= kSeveralCores || all_cores) return Cause::CpuThreads;
  if (host.busiest_thread >= kMostOfACore) return Cause::HostThread;
  if (host.cpu_cores >= kMostOfACore) return Cause::CpuThreads;
  return Cause::Waiting;
}

// What a waiting sample waited on: the most telling wait of the job's working threads (WaitKind's order), storage
// where the kernel's delay accounting counted a fifth of the interval blocked on I/O; nothing when neither tells.
std::optional<WaitKind> waited_on(const HostSample& host) {
  if (host.io_wait && *host.io_wait >= kIoWaitHigh) return WaitKind::Disk;
  if (!host.threads) return std::nullopt;
  std::optional<WaitKind> best;
  for (const auto& [name, count] : host.threads->waits) {
    const std::optional<WaitKind> kind = wait_kind_from_name(name);
    if (!kind || count <= 0) continue;
    if (!best || static_cast<int>(*kind) < static_cast<int>(*best)) best = kind;
  }
  return best;
}

struct WaitAdvice {
  const char* what;  // completes "the job's CPU was nearly idle and it waited on ..."
  const char* fix;
};

WaitAdvice wait_advice(std::optional<WaitKind> kind) {
  if (!kind) {
    return {"nothing watch could see (no thread of the job was blocked in a call it can read)",
            "The job waited, but not on anything /proc shows: see where each thread waits with `py-spy dump --pid "
            "PID` (Python) or `gdb -p PID -batch -ex 'thread apply all bt'`; with the kernel's delay accounting on "
            "(sysctl kernel.task_delayacct=1) watch also tells waits on storage"};
  }
  switch (*kind) {
    case WaitKind::Disk:
      return {"storage", "Load faster: copy the data set to local NVMe or the page cache, read larger files (shards) "
                         "sequentially, and prefetch more batches (DataLoader num_workers, prefetch_factor)"};
    case WaitKind::Network:
      return {"the network", "Fetch ahead: stream larger shards and prefetch more batches (DataLoader num_workers, "
                             "prefetch_factor), or stage the data set on local NVMe before the job"};
    case WaitKind::Sleep:
      return {"a sleep (the job paused itself)",
              "The job sleeps while the GPU waits: a rate limit, a retry back-off or a loop polling for data with "
              "time.sleep; wait on a queue that the producer fills instead, and prefetch so that data is ready"};
    case WaitKind::Lock:
      return {"a lock or a queue (futex)",
              "The job's threads wait on a lock or a queue that nothing fills fast enough: find the producer and "
              "what holds it up (`py-spy dump --pid PID` shows every thread's stack)"};
    case WaitKind::Gpu:
      return {"the GPU's driver (blocking synchronisations)",
              "The job synchronises with the GPU after little work: drop per-step syncs (.item(), .cpu(), printing "
              "a loss), give each step more work (larger batches), or capture it in a CUDA Graph"};
    case WaitKind::Local:
      return {"another process of this host (a pipe, a local socket or a child process)",
              "The process it waits on is the limit: see what it does (`py-spy dump --pid PID`), and give it more "
              "workers or move its work onto the GPU"};
    case WaitKind::Other:
      return {"a system call that is not storage, network, sleep or lock",
              "See where each thread waits with `py-spy dump --pid PID` or `strace -f -p PID`"};
  }
  return {"", ""};
}

}  // namespace

WatchFinding gpu_starved(const RuleInput& in) {
  const bool gpm = has_gpm(in.gpu.samples);
  const Rule rule{"gpu_starved",
                  gpm ? "DCGM: SM activity under 0.5 likely indicates ineffective GPU use; the host's share of a core "
                        "and the threads' waits (thread states, system calls) say why"
                      : "field guide: GPU utilisation under 30 % for long stretches (no GPM: NVML utilisation); the "
                        "host's share of a core and the threads' waits say why"};
  // Per idle sample, what the host showed; the waits of those that waited, and each wait's detail once.
  std::array<std::size_t, 3> causes{};
  std::size_t with_host = 0, explained_by_copies = 0;
  std::map<std::optional<WaitKind>, std::size_t> waits;
  std::map<WaitKind, std::string> wait_detail;
  std::vector<double> idle_cores, idle_busiest, idle_storage_read, idle_utilization, idle_activity;
  const Tally t = tally(in.gpu.samples, [&](const GpuSample& s) -> std::optional<bool> {
    const std::optional<double> activity = sm_activity(s, gpm);
    if (!activity) return std::nullopt;
    if (!activity_low(*activity, gpm)) return false;
    if (gpm) {
      const std::optional<double> kernels = kernel_utilization(s, in.gpu, in.ceilings);
      if (kernels && *kernels >= kKernelsBackToBack) return false;  // many small kernels, back to back
    }
    if (copies_at_ceiling(s, in.ceilings)) {
      ++explained_by_copies;
      return false;
    }
    idle_activity.push_back(*activity);
    if (s.utilization) idle_utilization.push_back(*s.utilization);
    if (const HostSample* host = host_at(in.job, s.t_s)) {
      ++with_host;
      const Cause cause = host_cause(*host, in.job.cpus_allowed);
      ++causes[static_cast<std::size_t>(cause)];
      idle_cores.push_back(host->cpu_cores);
      idle_busiest.push_back(host->busiest_thread);
      if (host->storage_read_gbps) idle_storage_read.push_back(*host->storage_read_gbps);
      if (cause == Cause::Waiting) {
        const std::optional<WaitKind> kind = waited_on(*host);
        ++waits[kind];
        if (kind && host->threads && !host->threads->wait_detail.empty() && !wait_detail.count(*kind)) {
          wait_detail[*kind] = host->threads->wait_detail;
        }
      }
    }
    return true;
  });
  const std::string activity_name = gpm ? "SM activity (DCGM_FI_PROF_SM_ACTIVE)" : "GPU utilisation (NVML)";
  if (!t.enough()) return rule.too_few(t, activity_name);
  const std::string threshold = percent(gpm ? kSmActiveLow : kUtilizationLow);
  const std::string copies_note =
      explained_by_copies == 0 ? ""
                               : "; " + std::to_string(explained_by_copies) +
                                     " samples with idle SMs are left to the link rules (copies at a ceiling)";
  if (!t.majority()) {
    return rule.ended(RuleOutcome::Clear,
                      activity_name + " under " + threshold + " in " + t.counts() + "; median " +
                          percent(*median(in.gpu.samples, gpm ? &GpuSample::sm_active : &GpuSample::utilization)) +
                          copies_note);
  }
  std::string evidence = "the GPU sat idle: " + activity_name + " under " + threshold + " (median " +
                         percent(*median_of(idle_activity)) + ") in " + t.counts() + copies_note;
  if (with_host == 0) {
    return rule.ended(RuleOutcome::Fired, evidence + "; no host sample of the job beside them, so why is not known",
                      "See what the job's host processes do while the GPU waits (`top -H -p PID`, `py-spy dump "
                      "--pid PID`)",
                      "unknown");
  }
  // The cause most idle samples showed.
  std::size_t top = 0;
  for (std::size_t i = 1; i < causes.size(); ++i) {
    if (causes[i] > causes[top]) top = i;
  }
  const Cause cause = static_cast<Cause>(top);
  const std::string share = std::to_string(causes[top]) + " of the " + std::to_string(with_host) + " idle samples";
  const std::string cores = fixed(*median_of(idle_cores), 2) + " cores";
  std::string fix, cause_id;
  switch (cause) {
    case Cause::HostThread: {
      cause_id = "host_thread";
      evidence += "; in " + share + " one thread of the job ran at " + percent(*median_of(idle_busiest)) +
                  " of a core (the job " + cores + "): a host-bound loop, launching and synchronising";
      const std::optional<double> utilization = median_of(idle_utilization);
      const double activity = *median_of(idle_activity);
      if (gpm && utilization && *utilization >= kSomeUtilization && *utilization >= kShortKernelsRatio * activity) {
        evidence += "; kernels ran " + percent(*utilization) + " of the time but kept the SMs " + percent(activity) +
                    " busy: they are small, and the GPU idles between them";
      }
      fix = "One host thread is the limit: it launches kernels and waits for them. Capture the step in a CUDA Graph "
            "(torch.cuda.graphs, torch.compile mode=\"reduce-overhead\"), fuse small kernels (torch.compile), give "
            "each kernel more work (larger batches), and drop per-step synchronisations (.item(), .cpu(), printing "
            "a loss); if that thread also prepares the data, move it into DataLoader workers";
      break;
    }
    case Cause::CpuThreads: {
      cause_id = "cpu_preprocessing";
      const bool turns = *median_of(idle_cores) < kSeveralCores && *median_of(idle_busiest) < kMostOfACore;
      evidence += "; in " + share + " the job kept " + cores + " of its " + std::to_string(in.job.cpus_allowed) +
                  " busy (its busiest thread " + percent(*median_of(idle_busiest)) + " of a core)" +
                  (turns ? ", spread over threads that take turns (Python's GIL)" : "") +
                  ": the GPU waits for preprocessing on the CPU";
      fix = std::string(turns ? "Threads share one core under Python's GIL: move the work into processes "
                                "(DataLoader num_workers) or onto the GPU. "
                              : "") +
            "Preprocess less on the CPU per step: more DataLoader workers if cores are free, decode and augment on "
            "the GPU (NVIDIA DALI, torchvision transforms on GPU tensors), or cache preprocessed data";
      break;
    }
    case Cause::Waiting: {
      std::optional<WaitKind> kind;
      std::size_t most = 0;
      for (const auto& [k, n] : waits) {
        if (n > most) {
          most = n;
          kind = k;
        }
      }
      const WaitAdvice advice = wait_advice(kind);
      cause_id = std::string("waiting_") + (kind ? wait_kind_name(*kind) : "unknown");
      evidence += "; in " + share + " the job's CPU was nearly idle (" + cores + ", its busiest thread " +
                  percent(*median_of(idle_busiest)) + " of a core): it waited on " + advice.what;
      if (kind) {
        evidence += " (" + std::to_string(most) + " samples";
        if (wait_detail.count(*kind)) evidence += ", e.g. " + wait_detail[*kind];
        evidence += ")";
      }
      if (kind == WaitKind::Disk && !idle_storage_read.empty()) {
        evidence += "; it read " + fixed(*median_of(idle_storage_read) * 1000, 0) + " MB/s from storage";
      }
      fix = advice.fix;
      break;
    }
  }
  return rule.ended(RuleOutcome::Fired, evidence, fix, cause_id);
}

}  // namespace gpubench
