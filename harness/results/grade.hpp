#pragma once
// The three-level verdict on a GPU, a stage or a node — pass, warn, fail — as stress and acceptance give it and
// as results documents and reports write it. The richer vocabularies map onto it: doctor's Severity
// (grade_of in doctor/finding.hpp) and check's VerdictKind (grade_of in verdict/metric_verdict.hpp).
#include <vector>

namespace gpubench {

// Ordered from best to worst, so that the worst of several is the largest.
enum class Grade { Pass, Warn, Fail };

const char* to_string(Grade grade);  // "pass", "warn", "fail"

// Fail if any fails, else warn if any warns, else pass (also for none).
Grade worst_of(const std::vector<Grade>& grades);

}  // namespace gpubench
