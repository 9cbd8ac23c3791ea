#pragma once
// JUnit XML, for CI systems: one <testcase> per verdict of a VerdictList — <failure> for a failed one,
// <skipped> for a skipped one, the detail as <system-out> for a passed one, and the verdict's properties as the
// test case's <properties> (as JUnit's own schema gives test suites, and Jenkins, GitLab and pytest read them on
// test cases). The <testsuite> says which host, when (`timestamp`: UTC without a zone, as the JUnit schema of Ant has
// it) and how long (`time`, seconds); a test case's `time` is 0 where it is not known. Serves `check --junit` and
// `acceptance --junit`.
#include <ostream>

#include "harness/report/verdict_list.hpp"

namespace gpubench {

void write_junit(const VerdictList& list, std::ostream& out);

}  // namespace gpubench
