#include "harness/acceptance/acceptance_selection.hpp"

namespace gpubench {

std::string acceptance_filter(const std::vector<FamilySpec>& families) {
  std::string alternatives;
  for (const FamilySpec& family : families) {
    for (const std::string& pattern : family.acceptance) {
      if (!alternatives.empty()) alternatives += "|";
      alternatives += family.name + "/" + pattern;
    }
  }
  return "^(" + alternatives + ")";
}

}  // namespace gpubench
