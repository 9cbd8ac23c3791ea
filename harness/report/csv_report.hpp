#pragma once
// CSV, for a spreadsheet: serves `show --format csv`. One file holds several tables, each a section: a line with
// its title alone, a header line, its rows; sections are separated by an empty line, and the first line describes
// the run. Fields are quoted as RFC 4180 says (a field holding a comma, a quote or a line break is quoted, its
// quotes doubled); lines end with "\n", as Unix tools expect.
#include <ostream>

#include "harness/report/show_tables.hpp"

namespace gpubench {

// Figures in six significant digits, nothing where nothing was measured; a grouped column's header names its
// group ("out_of_place time (us)").
void write_show_csv(const ShowReport& report, std::ostream& out);

}  // namespace gpubench
