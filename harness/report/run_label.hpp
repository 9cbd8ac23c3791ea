#pragma once
// What tells one results file from another in a report: the file, the run's id, host and start, and its GPUs.
// `compare` lists one per run above its table, `show` one above its tables.
#include <string>

#include "harness/results/results_document.hpp"

namespace gpubench {

struct RunLabel {
  std::string path;  // as given on the command line
  std::string run_id;
  std::string host;
  std::string started_at;
  std::string gpus;  // "2 x NVIDIA H200"; "1 x NVIDIA H100 80GB HBM3, 1 x NVIDIA L4" on a mixed node; "no GPU"
};

RunLabel run_label(const ResultsDocument& results, const std::string& path);

// "PATH: run ID on HOST (GPUS), started AT"
std::string describe(const RunLabel& label);

}  // namespace gpubench
