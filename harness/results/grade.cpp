#include "harness/results/grade.hpp"

#include <algorithm>

namespace gpubench {

const char* to_string(Grade grade) {
  switch (grade) {
    case Grade::Pass: return "pass";
    case Grade::Warn: return "warn";
    case Grade::Fail: return "fail";
  }
  return "unknown";
}

Grade worst_of(const std::vector<Grade>& grades) {
  return grades.empty() ? Grade::Pass : *std::max_element(grades.begin(), grades.end());
}

}  // namespace gpubench
