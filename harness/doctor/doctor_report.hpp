#pragma once
// The findings of `gpubench doctor` for a person (a list, worst first, each with its fix) and as JSON.
#include <nlohmann/json.hpp>

#include <ostream>
#include <vector>

#include "harness/doctor/finding.hpp"

namespace gpubench {

void print_findings(const std::vector<Finding>& findings, std::ostream& out);

// An array of {"severity", "check", "gpus", "finding", "fix"}; "gpus" is empty for node-wide findings.
nlohmann::json findings_json(const std::vector<Finding>& findings);

}  // namespace gpubench
