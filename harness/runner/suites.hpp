#pragma once
// The suites: "full" runs every family of the catalogue (benchmarks/catalogue.hpp), "quick" those marked for it,
// each with the repetitions and time limits its catalogue row gives.
#include <string>
#include <vector>

#include "benchmarks/catalogue.hpp"

namespace gpubench {

// Families of a suite ("quick" or "full"), in catalogue order; throws std::invalid_argument for another name.
std::vector<FamilySpec> families_in_suite(const std::string& suite);

}  // namespace gpubench
