#pragma once
// Measures chosen metrics of a finished run again, each time in fresh gpubench-micro processes (one per
// family variant, as `run` starts them), on the same GPUs and suite: what `check --confirm` does with a
// suspect before its verdict stands.
#include <atomic>
#include <string>
#include <vector>

#include "harness/results/results_document.hpp"
#include "harness/runner/run_benchmarks.hpp"

namespace gpubench {

class NvmlLibrary;

struct RemeasureOptions {
  int times = 3;           // fresh processes per suspect
  std::string micro_path;
  std::string log_dir;     // each pass logs into log_dir/passN
};

// Appends to results.confirmations one entry per id in `metric_ids` (ids the document measured), holding
// what each pass measured; a pass that failed or was stopped adds nothing for it, and says so on `notes`.
void remeasure(ResultsDocument& results, const std::vector<std::string>& metric_ids, const RemeasureOptions& options,
               const NvmlLibrary* nvml, const std::atomic<bool>& stop, std::vector<std::string>& notes);

}  // namespace gpubench
