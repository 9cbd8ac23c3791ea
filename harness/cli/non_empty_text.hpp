#pragma once
// A CLI11 check that a text option is not empty: where an empty value means "not given" (a default is used),
// an explicit `--option ''` would otherwise be silently read as the default.
#include <CLI/CLI.hpp>

#include <string>

namespace gpubench {

inline const CLI::Validator kNonEmptyText(
    [](std::string& text) -> std::string { return text.empty() ? "an empty value is not allowed" : ""; }, "TEXT");

}  // namespace gpubench
