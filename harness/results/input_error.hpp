#pragma once
// A bad input file: says which file, which field, what is wrong and what to do. The CLI exits 2 on it.
#include <stdexcept>
#include <string>

namespace gpubench {

class InputError : public std::runtime_error {
 public:
  InputError(const std::string& file, const std::string& field, const std::string& problem, const std::string& advice = "")
      : std::runtime_error(file + ": " + (field.empty() ? "" : "field '" + field + "': ") + problem +
                           (advice.empty() ? "" : " (" + advice + ")")) {}
};

}  // namespace gpubench
