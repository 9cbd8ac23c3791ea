#include "harness/report/watch/watch_show.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

#include "harness/report/figure_text.hpp"
#include "harness/report/markdown_code.hpp"
#include "harness/report/text_table.hpp"
#include "harness/results/clock_events.hpp"
#include "harness/watch/shell_command.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

std::string fixed(double x, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, x);
  return text;
}

// As many decimals as a figure of this size needs in a table: "4012", "55.5", "0.42".
std::string table_figure(double x) {
  const double a = std::fabs(x);
  return fixed(x, a >= 100 ? 0 : (a >= 10 ? 1 : 2));
}

std::string percent(double share) { return fixed(100 * share, 0) + " %"; }

std::string gbps_text(double x) { return table_figure(x) + " GB/s"; }

// Median (the upper of the two middle values, as watch's console takes it), 90th percentile (nearest rank) and
// maximum of `values` (not empty).
void order_statistics(std::vector<double> values, WatchQuantity& q) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  q.samples = n;
  q.median = values[n / 2];
  q.p90 = values[static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(n))) - 1];
  q.max = values.back();
}

WatchQuantity named(std::string name, std::string field, std::string unit) {
  WatchQuantity q;
  q.name = std::move(name);
  q.field = std::move(field);
  q.unit = std::move(unit);
  return q;
}

using SampleValue = std::function<std::optional<double>(const GpuSample&)>;

std::optional<WatchQuantity> quantity(const std::vector<GpuSample>& samples, std::string name, std::string field,
                                      std::string unit, const SampleValue& value) {
  std::vector<double> values;
  for (const GpuSample& s : samples) {
    if (const std::optional<double> v = value(s)) values.push_back(*v);
  }
  if (values.empty()) return std::nullopt;
  WatchQuantity q = named(std::move(name), std::move(field), std::move(unit));
  order_statistics(std::move(values), q);
  return q;
}

SampleValue share_of(std::optional<double> GpuSample::*member) {
  return [member](const GpuSample& s) -> std::optional<double> {
    if (!(s.*member)) return std::nullopt;
    return 100 * *(s.*member);
  };
}

SampleValue plain(std::optional<double> GpuSample::*member, double scale = 1) {
  return [member, scale](const GpuSample& s) -> std::optional<double> {
    if (!(s.*member)) return std::nullopt;
    return scale * *(s.*member);
  };
}

// The median's share of each ceiling: "pinned 55.5 GB/s, pageable 26.1 GB/s" and "47 %, 98 %".
void hold_against(WatchQuantity& q, const std::vector<std::pair<std::string, std::optional<Ceiling>>>& ceilings,
                  std::vector<std::string>& notes, const std::string& note_name) {
  for (const auto& [label, ceiling] : ceilings) {
    if (!ceiling || ceiling->value <= 0) continue;
    q.ceiling += (q.ceiling.empty() ? "" : ", ") + (label.empty() ? "" : label + " ") + gbps_text(ceiling->value);
    q.median_of_ceiling += (q.median_of_ceiling.empty() ? "" : ", ") + percent(q.median / ceiling->value);
    notes.push_back(note_name + (label.empty() ? "" : " " + label) + ": " + ceiling->metric);
  }
}

std::optional<Ceiling> best_peer(const GpuCeilings* ceilings) {
  std::optional<Ceiling> best;
  if (!ceilings) return best;
  for (const auto& [peer, ceiling] : ceilings->p2p_out_gbps) {
    if (!best || ceiling.value > best->value) best = ceiling;
  }
  return best;
}

WatchGpuShow gpu_show(const WatchDocument& d, const GpuTimeline& gpu) {
  WatchGpuShow g;
  g.index = gpu.index;
  g.name = gpu.name;
  g.samples = gpu.samples.size();
  if (!gpu.samples.empty()) {
    g.first_t_s = gpu.samples.front().t_s;
    g.last_t_s = gpu.samples.back().t_s;
  }
  const auto found = d.ceilings.gpus.find(gpu.index);
  const GpuCeilings* ceilings = found == d.ceilings.gpus.end() ? nullptr : &found->second;
  const auto& s = gpu.samples;
  const auto add = [&](std::optional<WatchQuantity> q) {
    if (q) g.quantities.push_back(std::move(*q));
  };
  add(quantity(s, "utilisation", "utilization", "%", share_of(&GpuSample::utilization)));
  add(quantity(s, "SM active", "sm_active", "%", share_of(&GpuSample::sm_active)));
  add(quantity(s, "SM occupancy", "sm_occupancy", "%", share_of(&GpuSample::sm_occupancy)));
  add(quantity(s, "tensor pipes", "tensor_active", "%", share_of(&GpuSample::tensor_active)));
  add(quantity(s, "FP16 pipe", "fp16_active", "%", share_of(&GpuSample::fp16_active)));
  add(quantity(s, "FP32 pipe", "fp32_active", "%", share_of(&GpuSample::fp32_active)));
  add(quantity(s, "FP64 pipe", "fp64_active", "%", share_of(&GpuSample::fp64_active)));
  add(quantity(s, "DRAM active", "dram_active", "%", share_of(&GpuSample::dram_active)));
  if (gpu.dram_peak_gbps) {
    const double peak = *gpu.dram_peak_gbps;
    if (auto hbm = quantity(s, "HBM", "dram_active x dram_peak_gbps", "GB/s", plain(&GpuSample::dram_active, peak))) {
      hold_against(*hbm, {{"measured", ceilings ? ceilings->hbm_gbps : std::nullopt}}, g.ceiling_notes, "HBM");
      add(std::move(hbm));
    }
  }
  const auto copies = [&](const char* name, const char* field, std::optional<double> GpuSample::*member,
                          bool into_gpu) {
    auto q = quantity(s, name, std::string(field) + " x 55/58.9", "GB/s", plain(member, kPcieLinkPayloadShare));
    if (!q) return;
    if (ceilings) {
      hold_against(*q, {{"pinned", into_gpu ? ceilings->h2d_pinned_gbps : ceilings->d2h_pinned_gbps},
                        {"pageable", into_gpu ? ceilings->h2d_pageable_gbps : ceilings->d2h_pageable_gbps}},
                   g.ceiling_notes, name);
    }
    add(std::move(q));
  };
  copies("PCIe into the GPU", "pcie_rx_gbps", &GpuSample::pcie_rx_gbps, true);
  copies("PCIe from the GPU", "pcie_tx_gbps", &GpuSample::pcie_tx_gbps, false);
  if (auto out = quantity(s, "NVLink out", "nvlink_tx_gbps", "GB/s", plain(&GpuSample::nvlink_tx_gbps))) {
    hold_against(*out, {{"fastest peer", best_peer(ceilings)}}, g.ceiling_notes, "NVLink out");
    add(std::move(out));
  }
  add(quantity(s, "NVLink in", "nvlink_rx_gbps", "GB/s", plain(&GpuSample::nvlink_rx_gbps)));
  if (auto used = quantity(s, "memory used", "memory_used_gib", "GiB", plain(&GpuSample::memory_used_gib))) {
    if (const auto total = quantity(s, "", "", "", plain(&GpuSample::memory_total_gib)); total && total->max > 0) {
      used->ceiling = table_figure(total->max) + " GiB total";
      used->median_of_ceiling = percent(used->median / total->max);
    }
    add(std::move(used));
  }
  add(quantity(s, "power", "power_w", "W", plain(&GpuSample::power_w)));
  add(quantity(s, "SM clock", "sm_clock_mhz", "MHz", plain(&GpuSample::sm_clock_mhz)));
  if (auto temperature = quantity(s, "temperature", "temperature_c", "C", plain(&GpuSample::temperature_c))) {
    if (gpu.slowdown_temperature_c) temperature->ceiling = "slowdown at " + table_figure(*gpu.slowdown_temperature_c) + " C";
    add(std::move(temperature));
  }

  std::map<std::string, std::size_t> reasons;
  for (const GpuSample& sample : s) {
    if (!sample.clock_event_reasons) continue;
    ++g.reason_samples;
    for (const std::string& name : clock_event_names(*sample.clock_event_reasons)) ++reasons[name];
  }
  for (const auto& [reason, count] : reasons) {
    g.clock_reasons.push_back({reason, count, static_cast<double>(count) / static_cast<double>(g.reason_samples)});
  }
  std::stable_sort(g.clock_reasons.begin(), g.clock_reasons.end(),
                   [](const WatchClockReason& a, const WatchClockReason& b) { return a.samples > b.samples; });
  for (const WatchEvent& event : d.timeline.events) {
    if (event.gpu == gpu.index) g.events.push_back(event);
  }
  if (const auto gpm = d.gpm_unavailable.find(gpu.index); gpm != d.gpm_unavailable.end()) g.gpm_unavailable = gpm->second;
  for (const GpuDiagnosis& diagnosis : d.diagnosis) {
    if (diagnosis.gpu == gpu.index) g.diagnosis = diagnosis;
  }
  if (!g.diagnosis && !d.diagnosis.empty()) {
    g.not_diagnosed = "the job did not use it" +
                      (d.diagnosed_gpus_basis.empty() ? std::string() : " (" + d.diagnosed_gpus_basis + ")");
  }
  return g;
}

std::vector<std::string> heading(const WatchDocument& d) {
  std::vector<std::string> lines;
  const std::string command = shell_command(d.timeline.command);
  std::string what;
  if (d.mode == "duration") {
    what = "GPU processes watched for " + fixed(d.duration_s, 1) + " s";
  } else {
    what = command.empty() ? std::string("a job") : "`" + command + "`";
    if (d.job && d.job->signal) {
      what += " ended by signal " + std::to_string(*d.job->signal) +
              (d.job->signal_name.empty() ? "" : " (" + d.job->signal_name + ")");
    } else if (d.job) {
      what += " exited with " + std::to_string(d.job->status);
    }
    if (d.duration_s > 0) what += " after " + fixed(d.duration_s, 1) + " s";
  }
  if (!d.hostname.empty()) what += " on " + d.hostname;
  if (!d.started_at.empty()) what += ", started " + d.started_at;
  if (!d.stopped_by.empty()) what += "; watch received " + d.stopped_by + " and passed it on";
  lines.push_back(what);
  char interval[32];
  std::snprintf(interval, sizeof interval, "%g", d.timeline.interval_s);
  lines.push_back("sampled every " + std::string(interval) + " s" +
                  (d.gpubench_version.empty() ? "" : " by gpubench " + d.gpubench_version));
  if (!d.ceilings.source.empty()) {
    lines.push_back("ceilings: " + d.ceilings.source + " (" + d.ceilings.kind +
                    (d.ceilings.note.empty() ? "" : ", " + d.ceilings.note) + ")");
  } else if (!d.ceilings.note.empty()) {
    lines.push_back("ceilings: none (" + d.ceilings.note + ")");
  } else {
    lines.push_back("ceilings: none in the document");
  }
  return lines;
}

std::vector<WatchQuantity> host_quantities(const WatchTimeline& t) {
  std::vector<WatchQuantity> out;
  std::vector<double> cores, busiest, io;
  for (const HostSample& s : t.host) {
    cores.push_back(s.cpu_cores);
    busiest.push_back(100 * s.busiest_thread);
    const std::optional<double> io_wait = s.io_wait;
    if (io_wait) io.push_back(100 * *io_wait);
  }
  if (!cores.empty()) {
    WatchQuantity q = named("CPU", "cpu_cores", "cores");
    order_statistics(cores, q);
    if (t.cpus_allowed > 0) {
      q.ceiling = std::to_string(t.cpus_allowed) + " cores allowed";
      q.median_of_ceiling = percent(q.median / t.cpus_allowed);
    }
    out.push_back(q);
    WatchQuantity b = named("busiest thread", "busiest_thread", "% of a core");
    order_statistics(busiest, b);
    out.push_back(b);
  }
  if (!io.empty()) {
    WatchQuantity q = named("I/O wait", "io_wait", "%");
    order_statistics(io, q);
    out.push_back(q);
  }
  return out;
}

// The cells of a quantity's row, as the console and Markdown print them.
std::vector<std::string> row_cells(const WatchQuantity& q) {
  return {q.name, q.unit, table_figure(q.median), table_figure(q.p90), table_figure(q.max), std::to_string(q.samples),
          q.ceiling.empty() ? "-" : q.ceiling, q.median_of_ceiling.empty() ? "-" : q.median_of_ceiling};
}

const std::vector<std::string> kRowHeaders = {"quantity", "unit", "median", "p90", "max", "samples", "ceiling",
                                              "median of ceiling"};

void print_quantities(const std::vector<WatchQuantity>& quantities, std::ostream& out) {
  TextTable table;
  for (std::size_t c = 0; c < kRowHeaders.size(); ++c) {
    const bool number = c >= 2 && c <= 5;
    table.add_column(kRowHeaders[c], number ? TextTable::Align::Right : TextTable::Align::Left);
  }
  for (const WatchQuantity& q : quantities) table.add_row(row_cells(q));
  table.print(out);
}

std::string gpu_title(const WatchGpuShow& g) {
  return "GPU " + std::to_string(g.index) + (g.name.empty() ? "" : " (" + g.name + ")");
}

std::string span_text(const WatchGpuShow& g) {
  return std::to_string(g.samples) + " samples" +
         (g.samples > 1 ? " over " + fixed(g.last_t_s - g.first_t_s, 1) + " s (t = " + fixed(g.first_t_s, 1) + " to " +
                              fixed(g.last_t_s, 1) + " s)"
                        : std::string());
}

std::string reasons_text(const WatchGpuShow& g) {
  if (g.reason_samples == 0) return "not read";
  if (g.clock_reasons.empty()) return "none in " + std::to_string(g.reason_samples) + " samples";
  std::string text;
  for (const WatchClockReason& r : g.clock_reasons) {
    text += (text.empty() ? "" : ", ") + r.reason + " " + percent(r.share);
  }
  return text + " (of " + std::to_string(g.reason_samples) + " samples)";
}

std::string event_text(const WatchEvent& e) {
  return "t = " + fixed(e.t_s, 1) + " s: " + e.kind + " " + std::to_string(e.code) +
         (e.detail.empty() ? "" : " (" + e.detail + ")");
}

std::string host_heading(const WatchShow& show) {
  return "host: the job's processes, " + std::to_string(show.host_samples) + " samples" +
         (show.cpus_allowed > 0 ? ", " + std::to_string(show.cpus_allowed) + " cores allowed" : std::string());
}

json quantity_json(const WatchQuantity& q) {
  json out{{"name", q.name}, {"field", q.field}, {"unit", q.unit}, {"samples", q.samples},
           {"median", q.median}, {"p90", q.p90}, {"max", q.max}};
  if (!q.ceiling.empty()) {
    out["ceiling"] = q.ceiling;
    out["median_of_ceiling"] = q.median_of_ceiling;
  }
  return out;
}

// A CSV field: the figure in six significant digits, empty where nothing was read.
std::string csv_figure(const std::optional<double>& value) { return value ? six_digits(*value) : ""; }

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

struct CsvSampleField {
  const char* name;
  std::optional<double> GpuSample::*member;
};

// Every sample field of the document but the three whole numbers, in to_json's order.
constexpr CsvSampleField kCsvFields[] = {
    {"utilization", &GpuSample::utilization},       {"memory_used_gib", &GpuSample::memory_used_gib},
    {"memory_total_gib", &GpuSample::memory_total_gib}, {"power_w", &GpuSample::power_w},
    {"sm_clock_mhz", &GpuSample::sm_clock_mhz},     {"temperature_c", &GpuSample::temperature_c},
    {"sm_active", &GpuSample::sm_active},           {"sm_occupancy", &GpuSample::sm_occupancy},
    {"tensor_active", &GpuSample::tensor_active},   {"dram_active", &GpuSample::dram_active},
    {"fp64_active", &GpuSample::fp64_active},       {"fp32_active", &GpuSample::fp32_active},
    {"fp16_active", &GpuSample::fp16_active},       {"pcie_tx_gbps", &GpuSample::pcie_tx_gbps},
    {"pcie_rx_gbps", &GpuSample::pcie_rx_gbps},     {"nvlink_tx_gbps", &GpuSample::nvlink_tx_gbps},
    {"nvlink_rx_gbps", &GpuSample::nvlink_rx_gbps},
};

// The job's host sample nearest to `t` (they come in time order), when one lies within an interval of it.
const HostSample* host_near(const WatchTimeline& t, double at) {
  const auto after = std::lower_bound(t.host.begin(), t.host.end(), at,
                                      [](const HostSample& s, double time) { return s.t_s < time; });
  const HostSample* nearest = after == t.host.end() ? nullptr : &*after;
  if (after != t.host.begin() && (!nearest || at - std::prev(after)->t_s < nearest->t_s - at)) {
    nearest = &*std::prev(after);
  }
  return nearest && std::fabs(nearest->t_s - at) <= t.interval_s ? nearest : nullptr;
}

void csv_line(const std::vector<std::string>& fields, std::ostream& out) {
  for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << fields[i];
  out << "\n";
}

void host_fields(const HostSample* host, std::vector<std::string>& fields) {
  if (!host) {
    fields.insert(fields.end(), {"", "", ""});
    return;
  }
  const std::optional<double> io_wait = host->io_wait;
  fields.push_back(six_digits(host->cpu_cores));
  fields.push_back(six_digits(host->busiest_thread));
  fields.push_back(csv_figure(io_wait));
}

}  // namespace

WatchShow watch_show(const WatchDocument& document, const std::string& path) {
  WatchShow show;
  show.path = path;
  show.heading = heading(document);
  for (const GpuTimeline& gpu : document.timeline.gpus) show.gpus.push_back(gpu_show(document, gpu));
  show.gpu_unavailable = document.gpu_unavailable;
  show.host_samples = document.timeline.host.size();
  show.cpus_allowed = document.timeline.cpus_allowed;
  show.host = host_quantities(document.timeline);
  return show;
}

void print_watch_show(const WatchShow& show, std::ostream& out) {
  out << show.path << ": gpubench watch\n";
  for (const std::string& line : show.heading) out << "  " << line << "\n";
  if (!show.gpu_unavailable.empty()) out << "\nno GPU was sampled: " << show.gpu_unavailable << "\n";
  for (const WatchGpuShow& g : show.gpus) {
    out << "\n" << gpu_title(g) << ": " << span_text(g) << "\n";
    if (!g.gpm_unavailable.empty()) out << "  no GPM metrics: " << g.gpm_unavailable << "\n";
    if (g.quantities.empty()) {
      out << "  no figure read\n";
    } else {
      print_quantities(g.quantities, out);
    }
    if (!g.ceiling_notes.empty()) {
      out << "  ceilings measured as:\n";
      for (const std::string& note : g.ceiling_notes) out << "    " << note << "\n";
    }
    if (std::any_of(g.quantities.begin(), g.quantities.end(),
                    [](const WatchQuantity& q) { return q.name.rfind("PCIe", 0) == 0; })) {
      out << "  PCIe as payload: GPM's link bytes x 55/58.9 (headers excluded, as measured on an H200)\n";
    }
    out << "  clock-event reasons: " << reasons_text(g) << "\n";
    out << "  events: " << (g.events.empty() ? "none" : "") << "\n";
    for (const WatchEvent& e : g.events) out << "    " << event_text(e) << "\n";
    if (g.diagnosis) {
      out << "  diagnosis: " << g.diagnosis->summary << "\n";
      for (const WatchFinding& f : g.diagnosis->findings) {
        if (f.outcome != RuleOutcome::Fired) continue;
        out << "    FIRED " << f.rule << ": " << f.evidence << "\n";
        out << "        fix: " << f.fix << "\n";
        out << "        threshold: " << f.source << "\n";
      }
      std::string clear;
      for (const WatchFinding& f : g.diagnosis->findings) {
        if (f.outcome == RuleOutcome::Clear) clear += (clear.empty() ? "" : ", ") + f.rule;
      }
      if (!clear.empty()) out << "    clear: " << clear << "\n";
      for (const WatchFinding& f : g.diagnosis->findings) {
        if (f.outcome == RuleOutcome::CouldNotRun) {
          out << "    not run " << f.rule << ": " << evidence_without_outcome(f) << "\n";
        }
      }
    } else if (!g.not_diagnosed.empty()) {
      out << "  not diagnosed: " << g.not_diagnosed << "\n";
    } else {
      out << "  diagnosis: none in the document\n";
    }
  }
  out << "\n" << host_heading(show) << "\n";
  if (show.host.empty()) {
    out << "  no host samples of the job\n";
  } else {
    print_quantities(show.host, out);
    if (std::none_of(show.host.begin(), show.host.end(), [](const WatchQuantity& q) { return q.field == "io_wait"; })) {
      out << "  I/O wait not known (the kernel's delay accounting was off)\n";
    }
  }
}

void write_watch_show_markdown(const WatchShow& show, std::ostream& out) {
  const auto cell = [](std::string text) {
    std::string escaped;
    for (char c : text) {
      if (c == '|') escaped += "\\|";
      else if (c == '\n') escaped += ' ';
      else if (c == '*' || c == '`' || c == '\\' || c == '_') escaped += std::string("\\") + c;
      else if (c == '<') escaped += "&lt;";
      else escaped += c;
    }
    return escaped;
  };
  const auto table = [&](const std::vector<WatchQuantity>& quantities) {
    out << "\n|";
    for (const std::string& header : kRowHeaders) out << " " << header << " |";
    out << "\n| --- | --- | ---: | ---: | ---: | ---: | --- | --- |\n";
    for (const WatchQuantity& q : quantities) {
      out << "|";
      for (const std::string& c : row_cells(q)) out << " " << cell(c) << " |";
      out << "\n";
    }
  };
  out << "### gpubench show: watch\n\n" << markdown_code(show.path, false) << "\n\n";
  for (const std::string& line : show.heading) out << "- " << cell(line) << "\n";
  if (!show.gpu_unavailable.empty()) out << "\nNo GPU was sampled: " << cell(show.gpu_unavailable) << "\n";
  for (const WatchGpuShow& g : show.gpus) {
    out << "\n#### " << cell(gpu_title(g)) << "\n\n" << cell(span_text(g)) << "\n";
    if (!g.quantities.empty()) table(g.quantities);
    out << "\n- clock-event reasons: " << cell(reasons_text(g)) << "\n";
    out << "- events: " << (g.events.empty() ? "none" : "") << "\n";
    for (const WatchEvent& e : g.events) out << "  - " << cell(event_text(e)) << "\n";
    if (!g.ceiling_notes.empty()) {
      out << "- ceilings measured as: ";
      for (std::size_t i = 0; i < g.ceiling_notes.size(); ++i) out << (i ? "; " : "") << cell(g.ceiling_notes[i]);
      out << "\n";
    }
    if (g.diagnosis) {
      out << "- diagnosis: **" << cell(g.diagnosis->summary) << "**\n";
      for (const WatchFinding& f : g.diagnosis->findings) {
        if (f.outcome == RuleOutcome::Clear) continue;
        out << "  - " << outcome_mark(f.outcome) << " " << markdown_code(f.rule, false) << ": " << cell(f.evidence)
            << (f.fix.empty() ? "" : " Fix: " + cell(f.fix)) << "\n";
      }
    } else if (!g.not_diagnosed.empty()) {
      out << "- not diagnosed: " << cell(g.not_diagnosed) << "\n";
    }
  }
  out << "\n#### " << cell(host_heading(show)) << "\n";
  if (!show.host.empty()) table(show.host);
}

json watch_show_json(const WatchShow& show) {
  json gpus = json::array();
  for (const WatchGpuShow& g : show.gpus) {
    json gpu{{"index", g.index}, {"name", g.name}, {"samples", g.samples}, {"first_t_s", g.first_t_s},
             {"last_t_s", g.last_t_s}, {"quantities", json::array()}, {"clock_event_reasons", json::array()},
             {"clock_event_reason_samples", g.reason_samples}, {"events", json::array()},
             {"ceiling_sources", g.ceiling_notes}};
    for (const WatchQuantity& q : g.quantities) gpu["quantities"].push_back(quantity_json(q));
    for (const WatchClockReason& r : g.clock_reasons) {
      gpu["clock_event_reasons"].push_back({{"reason", r.reason}, {"samples", r.samples}, {"share", r.share}});
    }
    for (const WatchEvent& e : g.events) {
      gpu["events"].push_back({{"t_s", e.t_s}, {"kind", e.kind}, {"code", e.code}, {"detail", e.detail}});
    }
    if (!g.gpm_unavailable.empty()) gpu["gpm_unavailable"] = g.gpm_unavailable;
    if (g.diagnosis) {
      json findings = json::array();
      for (const WatchFinding& f : g.diagnosis->findings) {
        json finding{{"rule", f.rule}, {"outcome", outcome_name(f.outcome)}, {"evidence", f.evidence},
                     {"source", f.source}};
        if (!f.fix.empty()) finding["fix"] = f.fix;
        findings.push_back(finding);
      }
      gpu["diagnosis"] = {{"summary", g.diagnosis->summary}, {"findings", findings}};
    } else if (!g.not_diagnosed.empty()) {
      gpu["not_diagnosed"] = g.not_diagnosed;
    }
    gpus.push_back(gpu);
  }
  json host{{"samples", show.host_samples}, {"cpus_allowed", show.cpus_allowed}, {"quantities", json::array()}};
  for (const WatchQuantity& q : show.host) host["quantities"].push_back(quantity_json(q));
  json out{{"schema", "gpubench.watch-show/1"}, {"path", show.path}, {"heading", show.heading}, {"gpus", gpus},
           {"host", host}};
  if (!show.gpu_unavailable.empty()) out["gpu_unavailable"] = show.gpu_unavailable;
  return out;
}

const std::vector<std::string>& watch_csv_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> c = {"t_s", "gpu"};
    for (const CsvSampleField& f : kCsvFields) c.emplace_back(f.name);
    c.insert(c.end(), {"clock_event_reasons", "pcie_gen", "pcie_width", "hbm_gbps", "cpu_cores", "busiest_thread",
                       "io_wait"});
    return c;
  }();
  return columns;
}

void write_watch_csv(const WatchDocument& document, std::ostream& out) {
  const WatchTimeline& t = document.timeline;
  std::vector<std::string> header;
  for (const std::string& column : watch_csv_columns()) header.push_back(csv_field(column));
  csv_line(header, out);
  for (const GpuTimeline& gpu : t.gpus) {
    for (const GpuSample& s : gpu.samples) {
      std::vector<std::string> fields = {six_digits(s.t_s), std::to_string(gpu.index)};
      for (const CsvSampleField& f : kCsvFields) fields.push_back(csv_figure(s.*f.member));
      fields.push_back(s.clock_event_reasons ? std::to_string(*s.clock_event_reasons) : "");
      fields.push_back(s.pcie_gen ? std::to_string(*s.pcie_gen) : "");
      fields.push_back(s.pcie_width ? std::to_string(*s.pcie_width) : "");
      fields.push_back(s.dram_active && gpu.dram_peak_gbps ? six_digits(*s.dram_active * *gpu.dram_peak_gbps) : "");
      host_fields(host_near(t, s.t_s), fields);
      csv_line(fields, out);
    }
  }
  if (!t.gpus.empty()) return;
  for (const HostSample& h : t.host) {
    std::vector<std::string> fields = {six_digits(h.t_s), ""};
    fields.resize(watch_csv_columns().size() - 3);
    host_fields(&h, fields);
    csv_line(fields, out);
  }
}

}  // namespace gpubench
