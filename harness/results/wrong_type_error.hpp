#pragma once
// The last guard of a document reader: a field its own checks do not cover, of the wrong type (a number where
// text belongs, ...), makes nlohmann::json throw; that becomes an InputError naming the file, like every other
// fault of an input.
#include <nlohmann/json.hpp>

#include <string>

#include "harness/results/input_error.hpp"

namespace gpubench {

// `read()`'s result; `fix` is what to do when a field has the wrong type.
template <typename Read>
auto with_wrong_types_as_input_errors(const std::string& source, const std::string& fix, Read read) {
  try {
    return read();
  } catch (const nlohmann::json::exception& error) {
    throw InputError(source, "", std::string("a field has the wrong type: ") + error.what(), fix);
  }
}

}  // namespace gpubench
