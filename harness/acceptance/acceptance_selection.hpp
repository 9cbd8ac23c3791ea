#pragma once
// Which of the quick suite's figures acceptance measures and judges: the catalogue's acceptance figures of every
// family, as one regular expression (also the default of `gpubench acceptance --filter`).
#include <string>
#include <vector>

#include "benchmarks/catalogue.hpp"

namespace gpubench {

// "^(family/pattern|...)" over every family's acceptance patterns, in catalogue order.
std::string acceptance_filter(const std::vector<FamilySpec>& families);

}  // namespace gpubench
