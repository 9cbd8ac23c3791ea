#pragma once
// What to try for a failure, by its kind (benchmarks/common/failure_kind.hpp): every failure in a results
// document carries advice.
#include <string>

#include "benchmarks/common/failure_kind.hpp"

namespace gpubench {

std::string advice_for_failure(FailureKind kind);

}  // namespace gpubench
