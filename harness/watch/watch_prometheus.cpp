#include "harness/watch/watch_prometheus.hpp"

#include <cstdio>
#include <map>
#include <string>

namespace gpubench {
namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

std::string quoted(const std::string& value) {
  std::string out;
  for (char ch : value) {
    if (ch == '\\') out += "\\\\";
    else if (ch == '"') out += "\\\"";
    else if (ch == '\n') out += "\\n";
    else out += ch;
  }
  return out;
}

std::string label_text(const Labels& labels) {
  std::string text;
  for (const auto& [name, value] : labels) {
    if (value.empty()) continue;  // Prometheus reads an empty label as an absent one
    text += (text.empty() ? "{" : ",") + name + "=\"" + quoted(value) + "\"";
  }
  return text.empty() ? "" : text + "}";
}

std::string number(double x) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

// Families in the order first added, each with HELP and TYPE once, as the text format requires.
class Families {
 public:
  void add(const std::string& name, const std::string& help, const Labels& labels, double value) {
    auto it = index_.find(name);
    if (it == index_.end()) {
      it = index_.emplace(name, families_.size()).first;
      families_.push_back({name, help, {}});
    }
    families_[it->second].lines.push_back(name + label_text(labels) + " " + number(value));
  }
  void write(std::ostream& out) const {
    for (const Family& f : families_) {
      out << "# HELP " << f.name << " " << f.help << "\n# TYPE " << f.name << " gauge\n";
      for (const std::string& line : f.lines) out << line << "\n";
    }
  }

 private:
  struct Family {
    std::string name, help;
    std::vector<std::string> lines;
  };
  std::vector<Family> families_;
  std::map<std::string, std::size_t> index_;
};

struct GpuField {
  const char* name;
  std::optional<double> GpuSample::*member;
  double scale;
  const char* help;
};

// dcgm-exporter's names (etc/default-counters.csv and dcp-metrics-included.csv) for the quantities a sample holds.
constexpr GpuField kGpuFields[] = {
    {"DCGM_FI_DEV_GPU_UTIL", &GpuSample::utilization, 100, "GPU utilization (in %)."},
    {"DCGM_FI_DEV_FB_USED", &GpuSample::memory_used_gib, 1024, "Framebuffer memory used (in MiB)."},
    {"DCGM_FI_DEV_POWER_USAGE", &GpuSample::power_w, 1, "Power draw (in W)."},
    {"DCGM_FI_DEV_SM_CLOCK", &GpuSample::sm_clock_mhz, 1, "SM clock frequency (in MHz)."},
    {"DCGM_FI_DEV_GPU_TEMP", &GpuSample::temperature_c, 1, "GPU temperature (in C)."},
    {"DCGM_FI_PROF_SM_ACTIVE", &GpuSample::sm_active, 1, "The ratio of cycles an SM has at least 1 warp assigned."},
    {"DCGM_FI_PROF_SM_OCCUPANCY", &GpuSample::sm_occupancy, 1, "The ratio of number of warps resident on an SM."},
    {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", &GpuSample::tensor_active, 1, "Ratio of cycles the tensor (HMMA) pipe is active."},
    {"DCGM_FI_PROF_DRAM_ACTIVE", &GpuSample::dram_active, 1,
     "Ratio of cycles the device memory interface is active sending or receiving data."},
    {"DCGM_FI_PROF_PIPE_FP64_ACTIVE", &GpuSample::fp64_active, 1, "Ratio of cycles the fp64 pipes are active."},
    {"DCGM_FI_PROF_PIPE_FP32_ACTIVE", &GpuSample::fp32_active, 1, "Ratio of cycles the fp32 pipes are active."},
    {"DCGM_FI_PROF_PIPE_FP16_ACTIVE", &GpuSample::fp16_active, 1, "Ratio of cycles the fp16 pipes are active."},
    {"DCGM_FI_PROF_PCIE_TX_BYTES", &GpuSample::pcie_tx_gbps, 1e9,
     "The rate of data transmitted over the PCIe bus - including both protocol headers and data payloads - in bytes "
     "per second."},
    {"DCGM_FI_PROF_PCIE_RX_BYTES", &GpuSample::pcie_rx_gbps, 1e9,
     "The rate of data received over the PCIe bus - including both protocol headers and data payloads - in bytes per "
     "second."},
    {"DCGM_FI_PROF_NVLINK_TX_BYTES", &GpuSample::nvlink_tx_gbps, 1e9,
     "The rate of data transmitted over NVLink, not including protocol headers, in bytes per second."},
    {"DCGM_FI_PROF_NVLINK_RX_BYTES", &GpuSample::nvlink_rx_gbps, 1e9,
     "The rate of data received over NVLink, not including protocol headers, in bytes per second."},
};

}  // namespace

void write_watch_prometheus(const WatchDocument& d, bool running, std::ostream& out) {
  Families families;
  std::map<int, std::string> uuids;
  for (const WatchedGpuIdentity& g : d.gpu_identities) uuids[g.index] = g.uuid;
  const auto gpu_labels = [&](const GpuTimeline& gpu) {
    return Labels{{"gpu", std::to_string(gpu.index)}, {"UUID", uuids[gpu.index]}, {"modelName", gpu.name},
                  {"Hostname", d.hostname}};
  };
  for (const GpuTimeline& gpu : d.timeline.gpus) {
    if (gpu.samples.empty()) continue;
    const GpuSample& s = gpu.samples.back();
    const Labels labels = gpu_labels(gpu);
    for (const GpuField& field : kGpuFields) {
      if (s.*field.member) families.add(field.name, field.help, labels, *(s.*field.member) * field.scale);
      if (field.member == &GpuSample::memory_used_gib && s.memory_used_gib && s.memory_total_gib) {
        families.add("DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", labels,
                     (*s.memory_total_gib - *s.memory_used_gib) * 1024);
      }
    }
    if (s.clock_event_reasons) {
      families.add("gpubench_watch_clock_event_reasons", "NVML's clock-event reasons of the last sample (bit mask).",
                   labels, static_cast<double>(*s.clock_event_reasons));
    }
    if (s.pcie_gen) families.add("gpubench_watch_pcie_link_gen", "Current PCIe link generation.", labels, *s.pcie_gen);
    if (s.pcie_width) families.add("gpubench_watch_pcie_link_width", "Current PCIe link width (lanes).", labels, *s.pcie_width);
    if (s.dram_active && gpu.dram_peak_gbps) {
      families.add("gpubench_watch_hbm_bytes_per_second",
                   "Device memory traffic: DCGM_FI_PROF_DRAM_ACTIVE times the theoretical bandwidth, bytes per second.",
                   labels, *s.dram_active * *gpu.dram_peak_gbps * 1e9);
    }
    const auto c = d.ceilings.gpus.find(gpu.index);
    if (c != d.ceilings.gpus.end() && c->second.hbm_gbps) {
      families.add("gpubench_watch_hbm_ceiling_bytes_per_second",
                   "The HBM bandwidth this GPU measured (the ceilings' memory read or triad figure), bytes per second.",
                   labels, c->second.hbm_gbps->value * 1e9);
    }
  }
  const Labels host{{"Hostname", d.hostname}};
  if (!d.timeline.host.empty()) {
    const HostSample& h = d.timeline.host.back();
    families.add("gpubench_watch_job_cpu_cores", "CPU time the job's processes used per second, in cores.", host,
                 h.cpu_cores);
    families.add("gpubench_watch_job_busiest_thread_ratio", "Share of one core the job's busiest thread used.", host,
                 h.busiest_thread);
    if (h.io_wait) {  // absent where the kernel's delay accounting is off: left out, never written as 0
      families.add("gpubench_watch_job_io_wait_ratio", "Share of the interval the job waited on block I/O.", host,
                   *h.io_wait);
    }
  }
  if (d.timeline.cpus_allowed > 0) {
    families.add("gpubench_watch_job_cpus_allowed", "Cores the job may run on (its affinity mask).", host,
                 d.timeline.cpus_allowed);
  }
  families.add("gpubench_watch_running", "1 while gpubench watch samples the job, 0 once it has finished.", host,
               running ? 1 : 0);
  families.add("gpubench_watch_elapsed_seconds", "Seconds since the job started.", host, d.duration_s);
  if (d.job) {
    families.add("gpubench_watch_job_exit_status", "The job's exit status as a shell reports it (128+signal).", host,
                 d.job->status);
  }
  for (const GpuDiagnosis& diagnosis : d.diagnosis) {
    std::string uuid = uuids[diagnosis.gpu];
    for (const WatchFinding& f : diagnosis.findings) {
      const Labels labels{{"gpu", std::to_string(diagnosis.gpu)}, {"UUID", uuid}, {"Hostname", d.hostname},
                          {"rule", f.rule}};
      if (f.outcome == RuleOutcome::CouldNotRun) {
        families.add("gpubench_watch_rule_could_not_run",
                     "1 when the rule could not judge this GPU (missing GPM fields, ceilings or samples).", labels, 1);
      } else {
        families.add("gpubench_watch_finding", "1 when the diagnosis rule fired on this GPU's timeline so far, else 0.",
                     labels, f.outcome == RuleOutcome::Fired ? 1 : 0);
      }
    }
  }
  if (!d.gpu_unavailable.empty()) {
    families.add("gpubench_watch_gpu_unavailable", "1 when no GPU could be sampled (no NVML): the GPU rules did not run.",
                 host, 1);
  }
  families.write(out);
}

}  // namespace gpubench
