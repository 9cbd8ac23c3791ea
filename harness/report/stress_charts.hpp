#pragma once
// `gpubench report`'s charts of a stress run (`gpubench stress`, `gpubench acceptance`): over the run's seconds, a
// line per GPU of the verified GEMM throughput (TFLOP/s per window, at the window's middle) and of the telemetry
// read once a second (SM clock, temperature, power). The document's "stress" section as docs/results-schema.md
// describes it; a reading of -1 (not readable) is left out. A GPU's telemetry longer than kMostStressPoints is
// thinned (thinned_series.hpp), with a note saying so.
#include <cstddef>
#include <string>
#include <vector>

#include "harness/report/report_charts.hpp"

namespace gpubench {

inline constexpr std::size_t kMostStressPoints = 2000;

// None when the document holds no stress run. Throws InputError naming `path` and the field when the section is
// not as documented.
std::vector<ReportChart> stress_charts(const ResultsDocument& results, const std::string& path);

}  // namespace gpubench
