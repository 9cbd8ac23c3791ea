#pragma once
// The console, for a person at a terminal: tables and lists, worst first. Serves `check --fleet`, `acceptance`,
// `doctor` and `show` (`check`: check_console.hpp; `compare`: comparison_report.hpp).
#include <ostream>
#include <vector>

#include "harness/acceptance/acceptance_verdict.hpp"
#include "harness/doctor/finding.hpp"
#include "harness/doctor/gpu_identity.hpp"
#include "harness/report/show_tables.hpp"
#include "harness/verdict/fleet.hpp"

namespace gpubench {

void print_fleet(const FleetReport& report, std::ostream& out);
// Each stage of the node and of each GPU with its reasons, each GPU's verdict, then the node's.
void print_acceptance(const AcceptanceReport& report, std::ostream& out);
// A count per severity, then one line per finding (worst first, as given); beneath a finding that is not ok, the
// identity of each GPU it concerns and the fix.
void print_findings(const std::vector<Finding>& findings, const std::vector<GpuIdentity>& identities, std::ostream& out);
// The run, then each table under its title, groups of columns (a collective's out_of_place and in_place) labelled
// above their headers.
void print_show(const ShowReport& report, std::ostream& out);

}  // namespace gpubench
