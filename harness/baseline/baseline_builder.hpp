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

// The least spread whose noise band (baseline_noise) reaches the run farthest from `expected`: a baseline is made
// of healthy runs, so each must pass a check against it. The MAD of ten runs or more ignores one run far out in
// a heavy tail (a host-side latency): one H200 run of ten measured a launch latency 16 % over the median, past
// the band the MAD gave (14 %), and failed against the baseline it was part of.
double spread_covering_every_run(const std::vector<double>& values, double expected);

// Per metric: expected = median of the runs' values; spread = the largest of the spread between runs (their
// standard deviation below ten runs, 1.4826 x MAD from ten on), how much a run's median moves judging by its own
// repetitions (median_standard_error, the median over the runs), so a baseline from few runs does not claim less
// noise than one run shows, and spread_covering_every_run; gates and gate_reason by why_not_gating().
// Throws InputError when the runs come from different kinds of machine, naming both files.
Baseline build_baseline(const std::vector<SourcedResults>& runs, const std::string& description,
                        const std::string& created_at, const std::string& gpubench_version);

}  // namespace gpubench
