#include "harness/results/grade.hpp"

#include <algorithm>

namespace gpubench {

const char* to_string(Grade grade) {
  static const char* const names[] = {"pass", "warn", "fail"};  // in the order of Grade
  return names[static_cast<int>(grade)];
}

Grade worst_of(const std::vector<Grade>& grades) {
  return grades.empty() ? Grade::Pass : *std::max_element(grades.begin(), grades.end());
}

}  // namespace gpubench
