#include "harness/doctor/finding.hpp"

namespace gpubench {

const char* severity_name(Severity severity) {
  switch (severity) {
    case Severity::Critical: return "critical";
    case Severity::Warning: return "warning";
    case Severity::Info: return "info";
    case Severity::Ok: return "ok";
  }
  return "unknown";
}

Grade grade_of(Severity severity) {
  return severity == Severity::Critical ? Grade::Fail : severity == Severity::Warning ? Grade::Warn : Grade::Pass;
}

}  // namespace gpubench
