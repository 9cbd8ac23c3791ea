#pragma once
// A CLI11 check for a --filter option: the pattern is refused at parse time, before any GPU is looked for
// or file read, when longer than kMaxFilterLength or when IdPattern would refuse it (invalid, or nesting
// quantifiers).
#include <CLI/CLI.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "harness/results/id_pattern.hpp"

namespace gpubench {

inline constexpr std::size_t kMaxFilterLength = 512;

inline const CLI::Validator kFilterPattern(
    [](std::string& text) -> std::string {
      if (text.size() > kMaxFilterLength) return "longer than " + std::to_string(kMaxFilterLength) + " characters";
      try {
        const IdPattern parsed(text);
      } catch (const std::invalid_argument& error) {
        return error.what();
      }
      return "";
    },
    "REGEX");

}  // namespace gpubench
