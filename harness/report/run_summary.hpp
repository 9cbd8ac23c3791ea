#pragma once
// The table printed at the end of `gpubench run`: every metric with its efficiency and spread, then the
// link asymmetries between GPU pairs and the GPUs whose aggregate copy bandwidth falls below their siblings'
// (verdict/sibling_aggregates.hpp), then the failures with what to try, then the skips with their reasons.
#include <ostream>

#include "harness/results/results_document.hpp"

namespace gpubench {

void print_run_summary(const ResultsDocument& document, std::ostream& out);

}  // namespace gpubench
