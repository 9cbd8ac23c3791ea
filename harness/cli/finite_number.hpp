#pragma once
// A CLI11 check that a number option is finite: CLI::Range lets "nan" through, as every comparison with NaN is
// false, and a NaN threshold would quietly change a verdict.
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <string>

namespace gpubench {

inline const CLI::Validator kFiniteNumber(
    [](std::string& text) -> std::string {
      char* end = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      if (end == text.c_str() || *end != '\0' || !std::isfinite(value)) return "'" + text + "' is not a finite number";
      return "";
    },
    "FINITE");

}  // namespace gpubench
