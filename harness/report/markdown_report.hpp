#pragma once
// Markdown, for a CI job summary: a headline, a summary line and a table. Serves `check --markdown`.
#include <ostream>

#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

void write_check_markdown(const CheckReport& report, std::ostream& out);

}  // namespace gpubench
