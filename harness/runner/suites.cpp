#include "harness/runner/suites.hpp"

#include <stdexcept>

namespace gpubench {

std::vector<FamilySpec> families_in_suite(const std::string& suite) {
  if (suite != "quick" && suite != "full") throw std::invalid_argument("unknown suite '" + suite + "' (quick or full)");
  std::vector<FamilySpec> selected;
  for (const FamilySpec& family : family_catalogue()) {
    if (suite == "full" || family.in_quick) selected.push_back(family);
  }
  return selected;
}

}  // namespace gpubench
