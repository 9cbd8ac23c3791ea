#pragma once
// `gpubench check` at a terminal: where the baselines came from, a table of verdicts worst first, and the verdict.
#include <ostream>

#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

// Colour (red regressions and failures, yellow noisy/missing, green passes) when `colour`. The summary line counts
// every verdict, informational (not gating) among them, and never reads a plain PASS while a figure that decides
// acceptance was not judged: those are listed beneath it, each with the reason.
void print_check_console(const CheckReport& report, std::ostream& out, bool colour);

}  // namespace gpubench
