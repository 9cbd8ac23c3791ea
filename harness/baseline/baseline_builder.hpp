#pragma once
// `gpubench baseline create`: robust statistics over several runs (or several nodes) of one machine kind.
#include <string>
#include <vector>

#include "harness/baseline/baseline_document.hpp"
#include "harness/results/results_document.hpp"

namespace gpubench {

struct SourcedResults {
  std::string path;
  ResultsDocument results;
};

// The spread of one run's value between runs: their sample standard deviation below ten runs, 1.4826 x MAD
// from ten on; 0 for fewer than two.
double spread_between_runs(const std::vector<double>& values);

// Per metric: expected = median of the runs' values; spread = the larger of the spread between runs (their
// standard deviation below ten runs, 1.4826 x MAD from ten on) and how much a run's median moves judging by
// its own repetitions (median_standard_error, the median over the runs), so a baseline from few runs does not
// claim less noise than one run shows; gates and gate_reason by why_not_gating().
// Throws InputError when the runs come from different kinds of machine, naming both files.
Baseline build_baseline(const std::vector<SourcedResults>& runs, const std::string& description,
                        const std::string& created_at, const std::string& gpubench_version);

}  // namespace gpubench
