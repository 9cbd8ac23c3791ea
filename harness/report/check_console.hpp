#pragma once
// `gpubench check` at a terminal: where the baselines came from, a table of verdicts worst first, and the verdict.
#include <ostream>

#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

// The figures that need a person (failed, regression, noisy, missing, improved), each reason cut to fit a terminal,
// then the summary, which counts every verdict and never reads a plain PASS while a figure that decides acceptance was
// not judged: those are listed beneath it. `every_figure` lists every verdict with its whole reason. Colour (red
// regressions and failures, yellow noisy/missing, green passes) when `colour`.
void print_check_console(const CheckReport& report, std::ostream& out, bool colour, bool every_figure = false);

}  // namespace gpubench
