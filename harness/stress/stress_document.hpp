#pragma once
// A stress run in a results document: per GPU a TFLOP/s metric (one sample per window), a failure for each
// failing finding (so `gpubench check` fails the run too), and the "stress" section with the telemetry time
// series, windows, counts and verdicts (a run longer than a day keeps its series bounded: bounded_series.hpp). The
// first run of a document is its "stress" section; each later one (the power and pulse loads of `acceptance --level
// standard`) is appended to that section's "phases", in the same shape.
#include "harness/results/results_document.hpp"
#include "harness/stress/stress_rules.hpp"

namespace gpubench {

void add_stress_to_document(const std::vector<GpuStressRecord>& gpus, const std::vector<GpuStressVerdict>& verdicts,
                            const StressLimits& limits, double duration_s, ResultsDocument& document);

}  // namespace gpubench
