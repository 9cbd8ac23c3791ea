#include "harness/runner/suites.hpp"

#include <stdexcept>

namespace gpubench {

const std::vector<FamilySpec>& benchmark_families() {
  static const std::vector<FamilySpec> families = {
      {"memory", "device memory bandwidth: STREAM read/write/copy/scale/add/triad and cudaMemcpy D2D, 1 GiB arrays",
       true, 3, 5, std::chrono::seconds(300)},
  };
  return families;
}

std::vector<FamilySpec> families_in_suite(const std::string& suite) {
  if (suite != "quick" && suite != "full") throw std::invalid_argument("unknown suite '" + suite + "' (quick or full)");
  std::vector<FamilySpec> selected;
  for (const FamilySpec& family : benchmark_families()) {
    if (suite == "full" || family.in_quick) selected.push_back(family);
  }
  return selected;
}

}  // namespace gpubench
