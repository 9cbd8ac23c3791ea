#pragma once
// What `gpubench watch` writes (schema "gpubench.watch/1", docs/watch.md): the job's timeline as watch_timeline.hpp
// writes it, and beside it how the watch went (the job's end, the GPUs it used, why telemetry was missing), the
// ceilings the rates were held against with their source, and the diagnosis of each GPU the job used. `show` and
// `report` read it back with read_watch_file; a timeline reader (watch_timeline_from_json) reads the same file and
// ignores the rest.
#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/watch/diagnosis_rules.hpp"
#include "harness/watch/node_ceilings.hpp"
#include "harness/watch/watch_timeline.hpp"

namespace gpubench {

// How the watched command ended (`watch -- COMMAND`).
struct WatchedJobEnd {
  int status = 0;                 // as a shell reports it: the exit code, or 128 + the signal that ended it
  std::optional<int> exit_code;   // when it exited by itself
  std::optional<int> signal;      // when a signal ended it
  std::string signal_name;        // "Killed", "Interrupt" (strsignal), with `signal`
};

// Which card a timeline's GPU is, for joining other tools' series (dcgm-exporter labels by UUID).
struct WatchedGpuIdentity {
  int index = 0;  // CUDA index, as the timeline's
  std::string uuid;
  std::string pci_bus_id;
};

// The ceilings held against the job's rates, and where they came from.
struct WatchCeilings {
  std::string source;  // the file read; empty when none was found
  std::string kind;    // "baseline" or "results"; empty when none
  std::string note;    // how it was chosen, or why there is none
  std::map<int, GpuCeilings> gpus;  // by CUDA index
};

struct WatchDocument {
  WatchTimeline timeline;
  std::string gpubench_version;
  std::string hostname;
  std::string started_at;   // "2026-12-04T01:02:03Z"
  std::string finished_at;
  double duration_s = 0;
  std::string mode = "command";  // "command" (watch -- COMMAND) or "duration" (watch --duration)
  std::optional<WatchedJobEnd> job;  // mode "command" only
  std::string stopped_by;            // "SIGINT" or "SIGTERM" when watch was asked to stop; empty otherwise
  std::vector<WatchedGpuIdentity> gpu_identities;
  // Why no GPU could be sampled ("NVML is not available: ..."); empty when GPUs were sampled. The GPU rules could
  // not run then, and the timeline holds host samples only.
  std::string gpu_unavailable;
  std::map<int, std::string> gpm_unavailable;  // by CUDA index: why GPM's fields are absent
  std::vector<int> diagnosed_gpus;             // the GPUs the job used, which the diagnosis covers
  std::string diagnosed_gpus_basis;            // how they were told ("the job's processes ran on them", ...)
  WatchCeilings ceilings;
  std::vector<GpuDiagnosis> diagnosis;  // one per diagnosed GPU, in its order
};

nlohmann::json to_json(const WatchDocument& document);
// The diagnosis alone (`watch --json FILE`): the job's end, the ceilings' source and each GPU's findings.
nlohmann::json diagnosis_json(const WatchDocument& document);

// Throws InputError naming `source` and the field when the document is invalid. Fields beside the timeline that
// are absent read as empty (a timeline written by the tests alone reads as a document with no diagnosis).
WatchDocument watch_document_from_json(const nlohmann::json& json, const std::string& source);
// Reads the file with results_io's limits; throws InputError naming it.
WatchDocument read_watch_file(const std::string& path);

}  // namespace gpubench
