#pragma once
// A CLI11 check of a --devices value's syntax, at parse time and so before any GPU is looked for: a bad list
// is bad usage (exit 2) even on a machine with no GPU. Whether each index exists is checked once the GPU
// count is known (selected_devices).
#include <CLI/CLI.hpp>

#include <stdexcept>
#include <string>

#include "benchmarks/common/device_selection.hpp"

namespace gpubench {

inline const CLI::Validator kDeviceListSyntax(
    [](std::string& text) -> std::string {
      try {
        parse_device_list(text, -1);
      } catch (const std::invalid_argument& error) {
        return error.what();
      }
      return "";
    },
    "LIST");

}  // namespace gpubench
