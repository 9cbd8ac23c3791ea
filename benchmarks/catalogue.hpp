#pragma once
// The benchmark families, one row each: everything the harness needs to run, judge and list a family. The
// harness's suites, default tolerances, acceptance selection and `gpubench list` read this table, and
// gpubench-micro registers its benchmarks by walking it (and prints it: --gpubench_catalogue).
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpubench {

// One child process of a family, with environment variables of its own: the NCCL family runs once per
// algorithm and protocol with NCCL_ALGO / NCCL_PROTO set, since NCCL reads them once per process.
struct FamilyVariant {
  std::string name;  // "" for a family with one variant; used in log file names
  std::map<std::string, std::string> environment;
};

struct FamilySpec {
  std::string name;  // also the prefix of its benchmark names and metric ids: "memory" -> "memory/..."
  std::string description;
  bool in_quick = true;  // the full suite runs every family
  int quick_repetitions = 3;
  int full_repetitions = 5;
  std::chrono::seconds timeout{300};  // per variant, on one or two GPUs (more: harness/runner/family_timeout.hpp)
  std::vector<FamilyVariant> variants = {FamilyVariant{}};
  // Default relative tolerances (0.05 = 5 %); a baseline file may override them per metric. Small transfers and
  // latencies (small_figure() below) get the looser one; with none, `tolerance` holds for every figure. A metric
  // of no family is judged with these defaults.
  double tolerance = 0.05;
  std::optional<double> small_figure_tolerance = 0.15;
  // Which figures decide acceptance: regular expressions searched after "name/" ("" = every figure); none: the
  // family takes no part.
  std::vector<std::string> acceptance;
  // Which figures measure the host (CPU, OS, virtualisation) as much as the GPU, as patterns like `acceptance`'s.
  // They differ between healthy nodes of one kind (on two lent H200 nodes, launch and sync latencies by up to 35 %,
  // graph instantiation by 75 %), so they gate only against a baseline made on the node checked.
  std::vector<std::string> node_bound;
  // Whether its figures of one GPU depend on the GPU model, driver and libraries alone, not on the node around the
  // GPU (memory, GEMM, caches, block size): such a figure can be judged against a baseline of the same GPU model made
  // on a node of any GPU count, where the node kind's own baseline cannot judge it.
  bool gpu_own = false;
};

// Every family, in the order the suites run them.
const std::vector<FamilySpec>& family_catalogue();

// The family whose name prefixes this benchmark name or metric id ("memory/triad/..." -> memory), or null.
const FamilySpec* family_of(const std::string& benchmark_or_metric);

// The figures that decide acceptance, as one regular expression over metric ids: "^(family/pattern|...)" over every
// family's acceptance patterns, in catalogue order (also the default of `gpubench acceptance --filter`).
std::string acceptance_filter(const std::vector<FamilySpec>& families);

// Whether the metric is one of its family's node_bound figures.
bool node_bound(const std::string& metric_id);

// Whether the metric is a figure of one GPU of a gpu_own family (memory/triad/1GiB/gpu0/bandwidth, not a figure of
// all GPUs together or of a pair).
bool gpu_own_figure(const std::string& metric_id);

// A figure dominated by latency and OS noise: anything in microseconds or milliseconds, and small transfers.
bool small_figure(const std::string& metric_id, const std::string& unit);

}  // namespace gpubench
