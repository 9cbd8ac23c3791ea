#pragma once
// Markdown, for a CI job summary or a wiki page: a headline, a summary line and tables. Serves `check --markdown`
// and `show --format markdown`.
#include <ostream>

#include "harness/report/show_tables.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

void write_check_markdown(const CheckReport& report, std::ostream& out);
// The run, then each table under its title as a heading; a grouped column's header names its group.
void write_show_markdown(const ShowReport& report, std::ostream& out);

}  // namespace gpubench
