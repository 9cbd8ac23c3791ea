#pragma once
// The kind of machine a results document comes from (GPU model, count, links between GPUs), which is how a
// baseline is chosen, and the choice itself.
#include <string>
#include <vector>

#include "harness/baseline/baseline_document.hpp"
#include "harness/results/results_document.hpp"

namespace gpubench {

// Throws InputError naming `source` when the environment does not say which GPUs ran.
MachineKind machine_kind_of(const ResultsDocument& results, const std::string& source);

std::string describe(const MachineKind& kind);

// A file name for a baseline of this kind: "nvidia-h200-x2-nv18.json".
std::string baseline_file_name(const MachineKind& kind);

struct SourcedBaseline {
  std::string path;
  Baseline baseline;
};

struct BaselineChoice {
  std::string path;  // empty when nothing matched
  Baseline baseline;
  // The directory's baselines of the same GPU model on nodes of another kind (another GPU count or topology), which
  // may judge the figures a GPU has of its own where `baseline` cannot (gpu_model_fallback.hpp). Empty when `where`
  // is a file.
  std::vector<std::string> considered;  // "path: kind" for each baseline looked at, for the error message
  std::vector<std::string> skipped;     // "path: field: problem" for each unreadable file of a directory
  std::vector<SourcedBaseline> same_model;
};

// `where` is a baseline file (used as is) or a directory searched for a baseline of this kind, and for the baselines
// of the same GPU model on other kinds of node.
// An unreadable file named as `where` throws InputError naming it; one in a directory is skipped, with the
// reason in `skipped` (and `considered`), so that one bad file does not hide the baseline that matches.
BaselineChoice choose_baseline(const MachineKind& kind, const std::string& where);

}  // namespace gpubench
