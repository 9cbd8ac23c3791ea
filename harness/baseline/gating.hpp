#pragma once
// Whether a baseline metric gates, and at what tolerance. A figure gates at the tolerance its noise allows: its
// nominal tolerance, or its noise band where that is wider (a pinned copy that moves 3.7 % between healthy runs gates
// at 18 %, which still catches a halved link). Only a figure whose band is too wide to catch a halved link stays
// informational, with the reason. A baseline of one run (`check --against RUN`) keeps the binary rule: it gates at
// its nominal tolerance when its band is within 1.5 x that tolerance, and not at all otherwise.
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

// The tolerance a gating metric is judged at, relative: its nominal tolerance, or its noise band
// (baseline_noise / expected) where that is wider and the baseline has several runs.
struct GatingTolerance {
  double fraction = 0;
  bool set_by_noise = false;  // the noise band, wider than the nominal tolerance
};
GatingTolerance gating_tolerance(const BaselineMetric& metric);

// "18 %: noise" where the noise band set it, "5 %" where the nominal tolerance did.
std::string gates_at_text(const GatingTolerance& tolerance);

// The change a halved host link makes to a figure, relative: -50 % of a throughput (higher is better), +100 % of a
// time (lower is better).
double halved_link_change(Better better);

// The widest noise band at which a figure of a baseline of several runs still gates: halved_link_change / sqrt(2)
// (35 % for higher-is-better figures, 71 % for lower-is-better). A regression must be past the gating tolerance and
// past the baseline's band combined in quadrature with the run's own noise (metric_verdict.hpp); with the band at
// most this, a halved link is past both while the run's own noise is as wide as the band.
double widest_gating_band(Better better);

// Empty when the metric gates. Otherwise why not, with the numbers, e.g. "run-to-run spread 17 % over 8 runs: noise
// alone moves it up to 80 %, wider than 35 %, past which it could not catch a halved link (-50 %)". One run
// (`check --against RUN`) is held to 1.5 x its nominal tolerance: "... over 1.5 x its 15 % tolerance".
std::string why_not_gating(const BaselineMetric& metric);

}  // namespace gpubench
