#pragma once
// CSV, for a spreadsheet or a script: serves `show --format csv`. One table, loadable as it is: a header line of
// fixed columns (kShowMetricColumns, docs/reports.md), then a row per metric shown. Each row names its run, so the
// files of many runs concatenate (less their header lines) into one table. Fields are quoted as RFC 4180 says (a
// field holding a comma, a quote or a line break is quoted, its quotes doubled); lines end with "\n", as Unix tools
// expect. Failures and skips are not metrics: the other formats show them.
#include <ostream>

#include "harness/report/show_tables.hpp"

namespace gpubench {

// Figures in six significant digits, an empty field where there is none.
void write_show_csv(const ShowReport& report, std::ostream& out);

}  // namespace gpubench
