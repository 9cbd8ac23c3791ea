#pragma once
// `gpubench show` of a watch document (schema "gpubench.watch/1", docs/watch.md): per GPU the job's figures over the
// whole timeline (median, 90th percentile and maximum of each quantity, beside this node's measured ceiling where
// the document has one), the share of samples with each clock-event reason, the events, the job's host figures and
// the diagnosis; and the timeline itself as one CSV table, a row per sample. `report` draws the same document
// (watch_report.hpp) and shows these tables beside its charts.
//
// Shares are printed as per cent; DRAM activity also as GB/s of HBM where the document gives the GPU's theoretical
// peak; PCIe as payload, as the watch command prints it: GPM counts link bytes, headers included, and on an H200
// back-to-back pinned copies of 55 GB/s read 58.9 GB/s there (issue #31), so payload = link bytes x 55/58.9.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/watch/gpu_activity.hpp"  // kPcieLinkPayloadShare: GPM's PCIe link bytes to payload
#include "harness/watch/watch_document.hpp"

namespace gpubench {

// One quantity over the job: a row of a GPU's table.
struct WatchQuantity {
  std::string name;      // "utilisation", "HBM", "PCIe into the GPU"
  std::string field;     // the document's field it comes from: "utilization", "dram_active x dram_peak_gbps"
  std::string unit;      // "%", "GB/s", "GiB", "W", "MHz", "C", "cores"
  std::size_t samples = 0;  // how many samples read it; the figures below are of those
  double median = 0;
  double p90 = 0;
  double max = 0;
  // What it is held against, as text ("4430 GB/s measured", "141 GiB total", "slowdown at 87 C"; several for PCIe:
  // "pinned 55.5 GB/s, pageable 26.1 GB/s"), and the median's share of each ("89 %"); empty where none.
  std::string ceiling;
  std::string median_of_ceiling;
};

struct WatchClockReason {
  std::string reason;  // NVML's, as clock_events.hpp names it: "sw_power_cap", "gpu_idle"
  std::size_t samples = 0;
  double share = 0;  // of the samples that read the reasons
};

struct WatchGpuShow {
  int index = 0;
  std::string name;
  std::size_t samples = 0;
  double first_t_s = 0;
  double last_t_s = 0;
  std::vector<WatchQuantity> quantities;  // only those read in at least one sample
  std::size_t reason_samples = 0;         // samples that read the clock-event reasons
  std::vector<WatchClockReason> clock_reasons;  // every reason seen, most frequent first
  std::vector<WatchEvent> events;
  std::string gpm_unavailable;            // why GPM's fields are absent; empty when they are not
  std::vector<std::string> ceiling_notes;  // where each ceiling came from: "HBM: memory/read/1GiB/gpu0/bandwidth"
  std::optional<GpuDiagnosis> diagnosis;  // absent when the document holds none for this GPU
  std::string not_diagnosed;              // why not, when the document diagnosed other GPUs but not this one
};

struct WatchShow {
  std::string path;
  std::vector<std::string> heading;  // what was watched, how it ended, where the ceilings came from
  std::vector<WatchGpuShow> gpus;
  std::string gpu_unavailable;       // why no GPU was sampled; empty when some were
  std::size_t host_samples = 0;
  int cpus_allowed = 0;
  std::vector<WatchQuantity> host;   // cpu cores, busiest thread, I/O wait (where known)
};

WatchShow watch_show(const WatchDocument& document, const std::string& path);

// For a person at a terminal: the heading, then per GPU its table, reasons, events and diagnosis, then the host.
void print_watch_show(const WatchShow& show, std::ostream& out);
// The same in Markdown (`show --format markdown`).
void write_watch_show_markdown(const WatchShow& show, std::ostream& out);
// {"schema": "gpubench.watch-show/1", "path", "heading", "gpus": [...], "host": {...}} (`show --format json`).
nlohmann::json watch_show_json(const WatchShow& show);

// The columns of the timeline's CSV, in order: t_s, gpu, every sample field of the document, hbm_gbps (DRAM activity
// x the theoretical peak), then the job's host sample nearest in time (within an interval): cpu_cores,
// busiest_thread, io_wait.
const std::vector<std::string>& watch_csv_columns();
// `show --format csv`: one table, a row per GPU sample in GPU then time order (a timeline without GPUs: a row per
// host sample, gpu empty); a field not read is empty, never 0. Shares as 0..1 and rates in GB/s, as in the document.
void write_watch_csv(const WatchDocument& document, std::ostream& out);

}  // namespace gpubench
