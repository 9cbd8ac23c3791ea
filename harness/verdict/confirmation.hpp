#pragma once
// Confirm before alarming: a metric that looks like a regression is measured again, in fresh processes, and
// the regression stands only when the re-measurements show it too. One slow process (a host hiccup, a launch
// configuration picked by noise) then costs a re-run, not a false alarm; a GPU that really got slower is
// slow in every process.
#include <string>
#include <vector>

#include "harness/baseline/baseline_document.hpp"
#include "harness/results/results_document.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

// The metric ids whose verdict is a regression and which the document has not measured again yet.
std::vector<std::string> unconfirmed_regressions(const CheckReport& report, const ResultsDocument& results);

// The re-measurements as one measurement: the median of their values, each process one sample, so its
// spread is the spread between processes.
Metric pooled_measurement(const Confirmation& confirmation);

// Re-judges every regression the document holds re-measurements of: the pooled re-measurement is judged
// against the same baseline entry; a regression there too is confirmed, anything else turns the verdict
// noisy ("did not reproduce"). Each reason says what the re-measurements gave.
void apply_confirmations(CheckReport& report, const ResultsDocument& results, const Baseline& baseline);

}  // namespace gpubench
