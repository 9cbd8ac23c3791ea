#include "harness/report/watch/watch_report.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/report/html_report.hpp"
#include "harness/report/thinned_series.hpp"
#include "harness/report/watch/watch_show.hpp"

namespace gpubench {
namespace {

std::string fixed(double x, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, x);
  return text;
}

std::string figure(double x) { return fixed(x, x >= 100 ? 0 : (x >= 10 ? 1 : 2)); }

ReportChart over_time(const std::string& title, const std::string& unit) {
  ReportChart chart;
  chart.title = title;
  chart.kind = ChartKind::Line;
  chart.x_axis = ChartXAxis::Seconds;
  chart.x_title = "seconds since the job started";
  chart.y_title = unit;
  return chart;
}

// The chart of a group with at least one measured series; nothing when none was read.
std::optional<ReportChart> kept(ReportChart chart) {
  if (std::none_of(chart.series.begin(), chart.series.end(), [](const ChartSeries& s) { return !s.reference; })) {
    return std::nullopt;
  }
  return chart;
}

class TimelineCharts {
 public:
  TimelineCharts(const GpuTimeline& gpu, double t_end) : gpu_(gpu), t_end_(t_end) {
    if (!gpu.samples.empty()) t_begin_ = std::min(0.0, gpu.samples.front().t_s);
  }

  // A line of `value` over the samples, when some sample read it.
  void add(ReportChart& chart, const std::string& label, const std::function<std::optional<double>(const GpuSample&)>& value) const {
    XySeries points;
    bool any = false;
    for (const GpuSample& s : gpu_.samples) {
      points.x.push_back(s.t_s);
      points.y.push_back(value(s));
      any = any || points.y.back().has_value();
    }
    if (!any) return;
    add_points(chart, label, points);
  }

  // A ceiling as a dashed line across the chart.
  void reference(ReportChart& chart, const std::string& label, double value) const {
    ChartSeries line;
    line.label = label;
    line.reference = true;
    line.x = {t_begin_, t_end_};
    line.y = {value, value};
    chart.series.push_back(std::move(line));
  }

  static void add_points(ReportChart& chart, const std::string& label, const XySeries& points) {
    ChartSeries line;
    line.label = label;
    const XySeries drawn = thinned_series(points, kMostWatchPoints);
    line.x = drawn.x;
    line.y = drawn.y;
    chart.series.push_back(std::move(line));
    if (points.x.size() > kMostWatchPoints) {
      chart.notes.push_back(label + ": " + std::to_string(points.x.size()) + " samples, drawn as the lowest and highest " +
                            "of each of " + std::to_string(kMostWatchPoints / 2) + " equal stretches");
    }
  }

 private:
  const GpuTimeline& gpu_;
  double t_begin_ = 0;
  double t_end_;
};

std::function<std::optional<double>(const GpuSample&)> field(std::optional<double> GpuSample::*member,
                                                              double scale = 1) {
  return [member, scale](const GpuSample& s) -> std::optional<double> {
    if (!(s.*member)) return std::nullopt;
    return scale * *(s.*member);
  };
}

std::string ceiling_label(const std::string& what, const Ceiling& c, const std::string& unit) {
  return what + " " + figure(c.value) + " " + unit + " (" + c.metric + ")";
}

std::vector<ReportChart> gpu_charts(const WatchDocument& d, const GpuTimeline& gpu, const std::string& name) {
  double t_end = 0;
  for (const GpuSample& s : gpu.samples) t_end = std::max(t_end, s.t_s);
  const TimelineCharts draw(gpu, t_end);
  const auto found = d.ceilings.gpus.find(gpu.index);
  const GpuCeilings* ceilings = found == d.ceilings.gpus.end() ? nullptr : &found->second;
  std::vector<ReportChart> charts;
  const auto keep = [&](ReportChart chart) {
    if (auto c = kept(std::move(chart))) charts.push_back(std::move(*c));
  };

  // A chart over the job's seconds, a line per quantity.
  using Line = std::pair<std::string, std::function<std::optional<double>(const GpuSample&)>>;
  const auto lines = [&](const std::string& title, const char* unit, const std::vector<Line>& quantities) {
    ReportChart chart = over_time(name + ": " + title, unit);
    for (const auto& [label, value] : quantities) draw.add(chart, label, value);
    return chart;
  };
  // Shares of the time, on an axis to 1.
  const auto shares = [&](const std::string& title, const std::vector<Line>& quantities) {
    ReportChart chart = lines(title + " (share of the time)", "share", quantities);
    chart.y_at_least = 1;
    keep(std::move(chart));
  };

  shares("activity", {{"utilisation", field(&GpuSample::utilization)},
                      {"SM active", field(&GpuSample::sm_active)},
                      {"tensor pipes active", field(&GpuSample::tensor_active)},
                      {"DRAM active", field(&GpuSample::dram_active)}});
  shares("math pipes", {{"tensor", field(&GpuSample::tensor_active)},
                        {"FP16", field(&GpuSample::fp16_active)},
                        {"FP32", field(&GpuSample::fp32_active)},
                        {"FP64", field(&GpuSample::fp64_active)},
                        {"SM occupancy", field(&GpuSample::sm_occupancy)}});

  if (gpu.dram_peak_gbps) {
    ReportChart hbm = over_time(name + ": HBM bandwidth (GB/s)", "GB/s");
    draw.add(hbm, "HBM (DRAM active x " + figure(*gpu.dram_peak_gbps) + " GB/s theoretical)",
             field(&GpuSample::dram_active, *gpu.dram_peak_gbps));
    if (ceilings && ceilings->hbm_gbps) draw.reference(hbm, ceiling_label("measured", *ceilings->hbm_gbps, "GB/s"), ceilings->hbm_gbps->value);
    keep(std::move(hbm));
  }

  ReportChart links = lines("PCIe and NVLink (GB/s)", "GB/s",
                            {{"PCIe into the GPU (payload)", field(&GpuSample::pcie_rx_gbps, kPcieLinkPayloadShare)},
                             {"PCIe from the GPU (payload)", field(&GpuSample::pcie_tx_gbps, kPcieLinkPayloadShare)},
                             {"NVLink out", field(&GpuSample::nvlink_tx_gbps)},
                             {"NVLink in", field(&GpuSample::nvlink_rx_gbps)}});
  if (ceilings) {
    const auto reference = [&](const char* what, const std::optional<Ceiling>& c) {
      if (c) draw.reference(links, ceiling_label(what, *c, "GB/s"), c->value);
    };
    reference("pinned H2D", ceilings->h2d_pinned_gbps);
    reference("pageable H2D", ceilings->h2d_pageable_gbps);
    reference("pinned D2H", ceilings->d2h_pinned_gbps);
    reference("pageable D2H", ceilings->d2h_pageable_gbps);
    std::optional<Ceiling> best;
    for (const auto& [peer, c] : ceilings->p2p_out_gbps) {
      if (!best || c.value > best->value) best = c;
    }
    reference("fastest peer copy", best);
  }
  links.notes.push_back("PCIe as payload: GPM's link bytes x 55/58.9 (headers excluded, as measured on an H200)");
  keep(std::move(links));

  keep(lines("power (W)", "W", {{"power", field(&GpuSample::power_w)}}));
  keep(lines("SM clock (MHz)", "MHz", {{"SM clock", field(&GpuSample::sm_clock_mhz)}}));

  ReportChart temperature = lines("temperature (C)", "C", {{"temperature", field(&GpuSample::temperature_c)}});
  if (gpu.slowdown_temperature_c) {
    draw.reference(temperature, "NVML's slowdown threshold " + figure(*gpu.slowdown_temperature_c) + " C",
                   *gpu.slowdown_temperature_c);
  }
  keep(std::move(temperature));

  ReportChart memory = lines("memory used (GiB)", "GiB", {{"used", field(&GpuSample::memory_used_gib)}});
  std::optional<double> total;
  for (const GpuSample& s : gpu.samples) {
    if (s.memory_total_gib) total = std::max(total.value_or(0.0), *s.memory_total_gib);
  }
  if (total) draw.reference(memory, "total " + figure(*total) + " GiB", *total);
  keep(std::move(memory));
  return charts;
}

std::vector<ReportChart> host_charts(const WatchTimeline& t) {
  if (t.host.empty()) return {};
  XySeries cores, busiest, io;
  bool io_known = false;
  for (const HostSample& s : t.host) {
    cores.x.push_back(s.t_s);
    cores.y.push_back(s.cpu_cores);
    busiest.x.push_back(s.t_s);
    busiest.y.push_back(s.busiest_thread);
    const std::optional<double> io_wait = s.io_wait;
    io.x.push_back(s.t_s);
    io.y.push_back(io_wait);
    io_known = io_known || io_wait.has_value();
  }
  std::vector<ReportChart> charts;
  ReportChart cpu = over_time("job: CPU (cores)", "cores");
  TimelineCharts::add_points(cpu, "CPU time per second", cores);
  if (t.cpus_allowed > 0) {
    ChartSeries allowed;
    allowed.label = "cores the job may run on (" + std::to_string(t.cpus_allowed) + ")";
    allowed.reference = true;
    allowed.x = {std::min(0.0, cores.x.front()), cores.x.back()};
    allowed.y = {static_cast<double>(t.cpus_allowed), static_cast<double>(t.cpus_allowed)};
    cpu.series.push_back(std::move(allowed));
  }
  charts.push_back(std::move(cpu));
  ReportChart threads = over_time("job: busiest thread and I/O wait (share of the time)", "share");
  threads.y_at_least = 1;
  TimelineCharts::add_points(threads, "busiest thread (share of a core)", busiest);
  if (io_known) {
    TimelineCharts::add_points(threads, "I/O wait (its most-waiting thread)", io);
  } else {
    threads.notes.push_back("I/O wait not known: the kernel's delay accounting was off");
  }
  charts.push_back(std::move(threads));
  return charts;
}

std::vector<std::string> diagnosis_lines(const GpuDiagnosis& diagnosis) {
  std::vector<std::string> lines;
  for (const WatchFinding& f : diagnosis.findings) {
    if (f.outcome != RuleOutcome::Fired) continue;
    lines.push_back("FIRED " + f.rule + ": " + f.evidence + ". Fix: " + f.fix + ". Threshold: " + f.source);
  }
  std::string clear;
  for (const WatchFinding& f : diagnosis.findings) {
    if (f.outcome == RuleOutcome::Clear) clear += (clear.empty() ? "" : ", ") + f.rule;
  }
  if (!clear.empty()) lines.push_back("clear: " + clear);
  for (const WatchFinding& f : diagnosis.findings) {
    if (f.outcome == RuleOutcome::CouldNotRun) lines.push_back("could not run " + f.rule + ": " + f.evidence);
  }
  return lines;
}

ShowCell cell(const std::string& text) { return text.empty() ? ShowCell{} : ShowCell{text}; }

// show's table of a GPU's (or the host's) figures over the job.
ShowTable quantities_table(const std::string& title, const std::vector<WatchQuantity>& quantities) {
  ShowTable table;
  table.kind = ShowTableKind::List;
  table.title = title;
  for (const char* name : {"quantity", "unit", "median", "p90", "max", "samples", "ceiling", "median of ceiling"}) {
    table.columns.push_back({name, "", ""});
  }
  for (const WatchQuantity& q : quantities) {
    table.rows.push_back({cell(q.name), cell(q.unit), q.median, q.p90, q.max, static_cast<std::uint64_t>(q.samples),
                          cell(q.ceiling), cell(q.median_of_ceiling)});
  }
  return table;
}

ShowTable events_table(const std::vector<WatchEvent>& events) {
  ShowTable table;
  table.kind = ShowTableKind::List;
  table.title = "events (Xid, ECC) during the job";
  for (const char* name : {"t_s", "kind", "code", "detail"}) table.columns.push_back({name, "", ""});
  for (const WatchEvent& e : events) {
    table.rows.push_back({e.t_s, cell(e.kind), cell(std::to_string(e.code)), cell(e.detail)});
  }
  return table;
}

}  // namespace

std::vector<ReportSection> watch_report_sections(const WatchDocument& document, const std::string& path) {
  const WatchShow show = watch_show(document, path);
  std::vector<ReportSection> sections;
  for (std::size_t g = 0; g < document.timeline.gpus.size(); ++g) {
    const GpuTimeline& gpu = document.timeline.gpus[g];
    const WatchGpuShow& shown = show.gpus[g];
    ReportSection section;
    const std::string name = "GPU " + std::to_string(gpu.index);
    section.title = name + (gpu.name.empty() ? "" : " (" + gpu.name + ")");
    std::string about = std::to_string(gpu.samples.size()) + " samples";
    if (shown.diagnosis) {
      about = "diagnosis: " + shown.diagnosis->summary + "; " + about;
      section.lines = diagnosis_lines(*shown.diagnosis);
    } else if (!shown.not_diagnosed.empty()) {
      about = "not diagnosed: " + shown.not_diagnosed + "; " + about;
    } else {
      about = "no diagnosis in the document; " + about;
    }
    if (!shown.gpm_unavailable.empty()) about += "; no GPM metrics: " + shown.gpm_unavailable;
    section.about = about;
    section.charts = gpu_charts(document, gpu, name);
    if (!shown.quantities.empty()) {
      std::string reasons = "clock-event reasons: ";
      if (shown.reason_samples == 0) {
        reasons += "not read";
      } else if (shown.clock_reasons.empty()) {
        reasons += "none";
      } else {
        for (std::size_t r = 0; r < shown.clock_reasons.size(); ++r) {
          reasons += (r ? ", " : "") + shown.clock_reasons[r].reason + " " +
                     fixed(100 * shown.clock_reasons[r].share, 0) + " %";
        }
        reasons += " of " + std::to_string(shown.reason_samples) + " samples";
      }
      section.tables.push_back(quantities_table(name + " over the job (" + reasons + ")", shown.quantities));
    }
    if (!shown.events.empty()) section.tables.push_back(events_table(shown.events));
    sections.push_back(std::move(section));
  }
  ReportSection host;
  host.title = "Host: the job's processes";
  host.about = std::to_string(document.timeline.host.size()) + " samples of the job's processes and their descendants" +
               (document.timeline.cpus_allowed > 0
                    ? ", which may run on " + std::to_string(document.timeline.cpus_allowed) + " cores"
                    : std::string());
  if (!document.gpu_unavailable.empty()) host.lines.push_back("no GPU was sampled: " + document.gpu_unavailable);
  host.charts = host_charts(document.timeline);
  if (!show.host.empty()) host.tables.push_back(quantities_table("the job's host figures over the job", show.host));
  sections.push_back(std::move(host));
  return sections;
}

void write_watch_report(const WatchDocument& document, const std::string& path, std::ostream& out) {
  const WatchShow show = watch_show(document, path);
  HtmlPageHeading heading;
  heading.title = "gpubench watch: " + (document.hostname.empty() ? path : document.hostname) +
                  (document.started_at.empty() ? "" : ", " + document.started_at);
  heading.h1 = "gpubench watch";
  heading.lines = show.heading;
  heading.lines.push_back("document: " + path);
  write_html_page(heading, watch_report_sections(document, path), out);
}

}  // namespace gpubench
