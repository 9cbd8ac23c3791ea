#pragma once
// Confirm before alarming: a metric that looks like a regression is measured again, in fresh processes, and
// the regression stands only when the re-measurements show it too. One slow process (a host hiccup, a launch
// configuration picked by noise) then costs a re-run, not a false alarm; a GPU that really got slower is
// slow in every process.
//
// A suspect is a gating metric past its tolerance on the worse side: a regression, and also a "noisy" one, whose
// run scattered too much to tell. Judged on one run, a GPU 10.8 % slower at BF16 GEMM under a light competing load
// was noisy (its three repetitions spread 580-636 TFLOP/s) and passed; measured again, its slowness either shows in
// every process and is a regression, or does not and stays noisy.
#include <string>
#include <vector>

#include "harness/baseline/baseline_document.hpp"
#include "harness/results/results_document.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

// Past the tolerance on the worse side, whether or not noise could explain it (judge_metric calls a figure noisy only
// past its tolerance).
bool is_suspect(const MetricVerdict& verdict);

// The metric ids of the suspects the document has not measured again yet.
std::vector<std::string> unconfirmed_suspects(const CheckReport& report, const ResultsDocument& results);

// The re-measurements as one measurement: the median of their values, each process one sample, so its
// spread is the spread between processes.
Metric pooled_measurement(const Confirmation& confirmation);

// The document as check judged it: each metric `check --confirm` measured again replaced by its pooled
// re-measurement (the value check shows and judges), the first measurement kept in `confirmations`' place.
ResultsDocument with_confirmed_values(const ResultsDocument& results);

// Re-judges every suspect the document holds re-measurements of: the pooled re-measurement is judged against the
// baseline entry that judged the suspect. A suspect that is a regression there too is a regression, confirmed.
// Otherwise a regression turns noisy ("did not reproduce"), and a noisy suspect stays noisy. Each reason says what
// the re-measurements gave.
void apply_confirmations(CheckReport& report, const ResultsDocument& results);

}  // namespace gpubench
