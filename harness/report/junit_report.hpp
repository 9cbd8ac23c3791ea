#pragma once
// JUnit XML, for CI systems: one <testcase> per verdict of a VerdictList — <failure> for a failed one,
// <skipped> for a skipped one, the detail as <system-out> for a passed one. Serves `check --junit` and
// `acceptance --junit`.
#include <ostream>

#include "harness/report/verdict_list.hpp"

namespace gpubench {

void write_junit(const VerdictList& list, std::ostream& out);

}  // namespace gpubench
