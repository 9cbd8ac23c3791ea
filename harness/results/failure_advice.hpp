#pragma once
// What to try for a failure, from its reason: every failure in a results document carries advice.
#include <string>

namespace gpubench {

std::string advice_for_failure(const std::string& reason);

}  // namespace gpubench
