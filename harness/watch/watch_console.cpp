#include "harness/watch/watch_console.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "harness/watch/gpu_activity.hpp"
#include "harness/watch/shell_command.hpp"

namespace gpubench {
namespace {

struct Colours {
  bool on = false;
  std::string red() const { return on ? "\033[31m" : ""; }
  std::string yellow() const { return on ? "\033[33m" : ""; }
  std::string green() const { return on ? "\033[32m" : ""; }
  std::string bold() const { return on ? "\033[1m" : ""; }
  std::string off() const { return on ? "\033[0m" : ""; }
};

std::string fixed(double x, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, x);
  return text;
}

// Three significant digits, in GB/s or TB/s: "55.5 GB/s", "4.43 TB/s", "0.42 GB/s".
std::string rate(double gbps) {
  const bool tera = gbps >= 1000;
  const double x = tera ? gbps / 1000 : gbps;
  const int decimals = x >= 100 ? 0 : x >= 10 ? 1 : 2;
  return fixed(x, decimals) + (tera ? " TB/s" : " GB/s");
}

std::string percent(double share) { return fixed(100 * share, 0) + " %"; }

std::optional<double> median_of(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

std::optional<double> median(const GpuTimeline& gpu, std::optional<double> GpuSample::*field) {
  std::vector<double> values;
  for (const GpuSample& s : gpu.samples) {
    if (s.*field) values.push_back(*(s.*field));
  }
  return median_of(std::move(values));
}

// "3.91 TB/s, 88 % of the 4.43 TB/s this GPU measured"
std::string against(double value_gbps, const std::optional<Ceiling>& ceiling, const char* measured_what) {
  std::string text = rate(value_gbps);
  if (ceiling && ceiling->value > 0) {
    text += ", " + percent(value_gbps / ceiling->value) + " of the " + rate(ceiling->value) + " " + measured_what;
  }
  return text;
}

std::string job_end_text(const WatchDocument& d) {
  const std::string command = shell_command(d.timeline.command);
  if (d.mode == "duration") {
    return "watched GPU processes for " + fixed(d.duration_s, 1) + " s" +
           (d.stopped_by.empty() ? "" : " (stopped by " + d.stopped_by + ")");
  }
  std::string text = "`" + command + "` ";
  if (d.job && d.job->signal) {
    text += "was ended by signal " + std::to_string(*d.job->signal) +
            (d.job->signal_name.empty() ? "" : " (" + d.job->signal_name + ")") + ", exit status " +
            std::to_string(d.job->status);
  } else if (d.job) {
    text += "exited with " + std::to_string(d.job->status);
  }
  text += " after " + fixed(d.duration_s, 1) + " s";
  if (!d.stopped_by.empty()) text += "; watch received " + d.stopped_by + " and passed it on";
  return text;
}

}  // namespace

std::string watch_rates_text(const GpuTimeline& gpu, const GpuCeilings* ceilings) {
  std::vector<std::string> parts;
  if (const auto u = median(gpu, &GpuSample::utilization)) parts.push_back("utilisation " + percent(*u));
  if (const auto sm = median(gpu, &GpuSample::sm_active)) parts.push_back("SM activity " + percent(*sm));
  if (const auto tensor = median(gpu, &GpuSample::tensor_active)) parts.push_back("tensor pipes " + percent(*tensor));
  if (const auto dram = median(gpu, &GpuSample::dram_active); dram && gpu.dram_peak_gbps) {
    parts.push_back("HBM " + against(*dram * *gpu.dram_peak_gbps, ceilings ? ceilings->hbm_gbps : std::nullopt,
                                     "this GPU measured"));
  }
  if (const auto rx = median(gpu, &GpuSample::pcie_rx_gbps)) {
    parts.push_back("PCIe to the GPU " + against(*rx * kPcieLinkPayloadShare, ceilings ? ceilings->h2d_pinned_gbps : std::nullopt,
                                               "of pinned copies measured"));
  }
  if (const auto tx = median(gpu, &GpuSample::pcie_tx_gbps)) {
    parts.push_back("from it " + against(*tx * kPcieLinkPayloadShare, ceilings ? ceilings->d2h_pinned_gbps : std::nullopt,
                                         "of pinned copies measured"));
  }
  const auto nv_tx = median(gpu, &GpuSample::nvlink_tx_gbps), nv_rx = median(gpu, &GpuSample::nvlink_rx_gbps);
  if (nv_tx && nv_rx && (*nv_tx > 0 || *nv_rx > 0)) {
    std::optional<Ceiling> best;
    if (ceilings) {
      for (const auto& peer : ceilings->p2p_out_gbps) {
        if (!best || peer.second.value > best->value) best = peer.second;
      }
    }
    parts.push_back("NVLink out " + against(*nv_tx, best, "of peer copies measured") + ", in " + rate(*nv_rx));
  }
  if (const auto used = median(gpu, &GpuSample::memory_used_gib)) {
    const auto total = median(gpu, &GpuSample::memory_total_gib);
    parts.push_back("memory " + fixed(*used, 1) + (total ? " of " + fixed(*total, 1) : "") + " GiB");
  }
  if (const auto power = median(gpu, &GpuSample::power_w)) parts.push_back(fixed(*power, 0) + " W");
  if (const auto clock = median(gpu, &GpuSample::sm_clock_mhz)) parts.push_back("SM clock " + fixed(*clock, 0) + " MHz");
  if (const auto temp = median(gpu, &GpuSample::temperature_c)) parts.push_back(fixed(*temp, 0) + " C");
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : "; ") + part;
  return text.empty() ? "no rates read" : text;
}

std::string watch_host_text(const WatchTimeline& timeline) {
  if (timeline.host.empty()) return "no host samples of the job";
  std::vector<double> cores, busiest, io;
  for (const HostSample& s : timeline.host) {
    cores.push_back(s.cpu_cores);
    busiest.push_back(s.busiest_thread);
    if (s.io_wait) io.push_back(*s.io_wait);
  }
  std::string text = "the job used " + fixed(*median_of(cores), 1) + " cores";
  if (timeline.cpus_allowed > 0) text += " of the " + std::to_string(timeline.cpus_allowed) + " it may run on";
  const std::optional<double> io_median = median_of(io);
  text += ", its busiest thread " + percent(*median_of(busiest)) + " of a core, I/O wait " +
          (io_median ? percent(*io_median) : std::string("unknown (the kernel's delay accounting is off)")) +
          " (medians of " + std::to_string(timeline.host.size()) + " samples)";
  return text;
}

void print_watch_console(const WatchDocument& d, const std::vector<std::string>& written, std::ostream& out,
                         bool colour) {
  const Colours c{colour};
  out << c.bold() << "gpubench watch: " << c.off() << job_end_text(d) << "\n";
  if (d.ceilings.source.empty()) {
    out << "  ceilings: none" << (d.ceilings.note.empty() ? "" : " (" + d.ceilings.note + ")")
        << ": the rules that need one say so\n";
  } else {
    out << "  ceilings: " << d.ceilings.source << " (" << d.ceilings.kind
        << (d.ceilings.note.empty() ? "" : ", " + d.ceilings.note) << ")\n";
  }
  if (!d.gpu_unavailable.empty()) {
    out << c.yellow() << "GPU rules could not run: " << d.gpu_unavailable << c.off()
        << "; the timeline holds the job's host samples only\n";
  }
  for (const GpuDiagnosis& diagnosis : d.diagnosis) {
    const GpuTimeline* gpu = nullptr;
    for (const GpuTimeline& g : d.timeline.gpus) {
      if (g.index == diagnosis.gpu) gpu = &g;
    }
    bool fired = false;
    for (const WatchFinding& f : diagnosis.findings) fired = fired || f.outcome == RuleOutcome::Fired;
    out << "\n" << c.bold() << "GPU " << diagnosis.gpu << (gpu && !gpu->name.empty() ? " (" + gpu->name + ")" : "")
        << ": " << c.off() << (fired ? c.red() : c.green()) << diagnosis.summary << c.off();
    if (gpu) out << ", " << gpu->samples.size() << " samples";
    out << "\n";
    if (!diagnosis.steady.why.empty()) {
      out << "  judged: the steady part, " << fixed(diagnosis.steady.from_s, 0) << "-"
          << fixed(diagnosis.steady.to_s, 0) << " s (left out: " << diagnosis.steady.why << ")\n";
    }
    if (gpu) {
      const auto ceilings = d.ceilings.gpus.find(diagnosis.gpu);
      out << "  rates (medians): "
          << watch_rates_text(*gpu, ceilings == d.ceilings.gpus.end() ? nullptr : &ceilings->second) << "\n";
    }
    if (const auto gpm = d.gpm_unavailable.find(diagnosis.gpu); gpm != d.gpm_unavailable.end()) {
      out << "  " << c.yellow() << "no GPM metrics: " << gpm->second << c.off() << "\n";
    }
    for (const WatchFinding& f : diagnosis.findings) {
      if (f.outcome != RuleOutcome::Fired) continue;
      out << "  " << c.red() << outcome_mark(f.outcome) << " " << f.rule << c.off()
          << (f.cause.empty() ? "" : " (" + f.cause + ")") << ": " << f.evidence << "\n";
      out << "      fix: " << f.fix << "\n";
      out << "      threshold: " << f.source << "\n";
    }
    std::string clear;
    for (const WatchFinding& f : diagnosis.findings) {
      if (f.outcome == RuleOutcome::Clear) clear += (clear.empty() ? "" : ", ") + f.rule;
    }
    if (!clear.empty()) out << "  clear: " << clear << "\n";
    for (const WatchFinding& f : diagnosis.findings) {
      if (f.outcome != RuleOutcome::CouldNotRun) continue;
      out << "  " << c.yellow() << outcome_mark(f.outcome) << " " << f.rule << c.off() << ": "
          << evidence_without_outcome(f) << "\n";
    }
  }
  for (const GpuTimeline& gpu : d.timeline.gpus) {
    if (std::find(d.diagnosed_gpus.begin(), d.diagnosed_gpus.end(), gpu.index) != d.diagnosed_gpus.end()) continue;
    out << "\nGPU " << gpu.index << (gpu.name.empty() ? "" : " (" + gpu.name + ")")
        << ": not diagnosed, the job did not use it (" << d.diagnosed_gpus_basis << ")\n";
  }
  out << "\nhost: " << watch_host_text(d.timeline) << "\n";
  for (const std::string& line : written) out << line << "\n";
}

}  // namespace gpubench
