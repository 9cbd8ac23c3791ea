#pragma once
// A baseline: what a healthy machine of one kind measures (schema "gpubench.baseline/1"). Same metric ids
// as results documents. Made by `gpubench baseline create` from several runs; data only.
#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "benchmarks/common/benchmark_label.hpp"

namespace gpubench {

inline constexpr const char* kBaselineSchema = "gpubench.baseline/1";

// What a baseline applies to. Matching needs model, count and topology; versions are recorded only.
struct MachineKind {
  std::string gpu_model;  // "NVIDIA H200"
  int gpu_count = 0;
  std::string topology;   // "single", or the link kinds between GPUs: "NV18", "NV18+SYS", ...
  bool operator==(const MachineKind& other) const {
    return gpu_model == other.gpu_model && gpu_count == other.gpu_count && topology == other.topology;
  }
};

struct BaselineMetric {
  double expected = 0;  // median over runs of each run's median
  double spread = 0;    // standard deviation of one run's value (see build_baseline), same unit
  int runs = 0;
  Better better = Better::Higher;
  std::string unit;
  double tolerance = 0.05;  // relative
  std::vector<double> run_values;  // each run's median, for the record
  // Whether a change past its gating tolerance fails a check (gating.hpp): decided by the rule when the file is
  // read, not written by `baseline create`; an operator may set it by hand in the file ("gates"). When false,
  // gate_reason says why and the metric's verdict is informational.
  bool gates = true;
  std::string gate_reason;
  bool gating_set_by_hand = false;  // "gates" was in the file as an operator's choice, and is written back
  // The kernel its runs measured it with, where they agreed (measuring_method.hpp); empty in older files.
  std::map<std::string, std::string> method;
};

struct BaselineRun {
  std::string id;
  std::string host;
  std::string started_at;
  // The UUIDs of the GPUs it ran on: which node it was (hostnames repeat across VMs and images). Empty in files
  // made before they were kept.
  std::vector<std::string> gpus;
};

struct Baseline {
  std::string created_at;
  std::string gpubench_version;
  std::string description;
  MachineKind kind;
  nlohmann::json recorded_versions = nlohmann::json::object();  // driver/CUDA/NCCL of the runs, for the record
  std::vector<BaselineRun> runs;
  std::map<std::string, BaselineMetric> metrics;
};

nlohmann::json to_json(const Baseline& baseline);
// Throws InputError naming `source` and the field. A metric without "gates", or whose "gates" is false with the
// rule's own reason ("run-to-run spread ...", as `baseline create` wrote it before gating was decided on reading),
// gets it decided by why_not_gating() of today's rule.
Baseline baseline_from_json(const nlohmann::json& json, const std::string& source);
Baseline read_baseline_file(const std::string& path);

}  // namespace gpubench
