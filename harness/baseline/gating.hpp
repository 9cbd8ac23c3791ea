#pragma once
// Whether a baseline metric gates: whether its baseline can tell a change not much past its tolerance from noise. A
// metric that cannot (a launch latency that moves 10 % between healthy runs, against a 15 % tolerance, with
// the band three runs give) would raise false alarms; it stays informational, with the reason.
#include <string>

#include "harness/baseline/baseline_document.hpp"

namespace gpubench {

// How far noise alone moves one new run from `expected`, in the metric's unit: t x spread x sqrt(1 + 1/runs),
// a prediction interval for one run, where t is Student's quantile for the 3-sigma tail with runs - 1
// degrees of freedom (student_t_three_sigma). A one-run baseline (`check --against RUN`) has only that run's
// own spread, taken as known: t is 3.
double baseline_noise(const BaselineMetric& metric);

// baseline_noise() of a spread of 1 from `runs` runs: t x sqrt(1 + 1/runs).
double noise_per_unit_spread(int runs);

// Empty when the metric gates: its noise band, relative to expected, is at most 1.5 x its tolerance. Otherwise why
// not, with the numbers, e.g. "run-to-run spread 6.1 % over 10 runs: noise alone moves it up to 26 %, over 1.5 x its
// 15 % tolerance". One run (`check --against RUN`) is judged the same way, its spread taken as known.
std::string why_not_gating(const BaselineMetric& metric);

}  // namespace gpubench
