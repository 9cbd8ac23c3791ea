#pragma once
// The family catalogue as JSON, which gpubench-micro prints on --gpubench_catalogue: what a test (or a person)
// checks its benchmark listing against.
#include <nlohmann/json.hpp>

#include "benchmarks/catalogue.hpp"

namespace gpubench {

nlohmann::json catalogue_json(const std::vector<FamilySpec>& families);

}  // namespace gpubench
