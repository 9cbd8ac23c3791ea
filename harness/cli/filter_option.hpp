#pragma once
// A CLI11 check for a --filter option: the pattern is refused at parse time, before any GPU is looked for
// or file read, when IdPattern would refuse it (invalid, too long, or nesting quantifiers).
#include <CLI/CLI.hpp>

#include <stdexcept>
#include <string>

#include "harness/results/id_pattern.hpp"

namespace gpubench {

inline const CLI::Validator kFilterPattern(
    [](std::string& text) -> std::string {
      try {
        const IdPattern parsed(text);
      } catch (const std::invalid_argument& error) {
        return error.what();
      }
      return "";
    },
    "REGEX");

}  // namespace gpubench
