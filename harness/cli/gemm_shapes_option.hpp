#pragma once
// A CLI11 check for `run --gemm-shapes`: a list "M,N,K:M,N,K" or the name of a file with one shape a line, read
// and checked at parse time (exit 2 naming the option, the file and the item), before any GPU is looked for. The
// value becomes the list itself, as gpubench-micro reads it from GPUBENCH_GEMM_SHAPES.
#include <CLI/CLI.hpp>
#include <sys/stat.h>

#include <stdexcept>
#include <string>

#include "benchmarks/gemm/gemm_shape_list.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {

inline const CLI::Validator kGemmShapeList(
    [](std::string& text) -> std::string {
      struct stat info {};
      const bool is_file = stat(text.c_str(), &info) == 0;
      try {
        text = format_gemm_shape_list(parse_gemm_shape_list(is_file ? read_regular_file(text) : text));
      } catch (const InputError& error) {
        return error.what();
      } catch (const std::invalid_argument& error) {
        return (is_file ? text + ": " : std::string()) + error.what();
      }
      if (text.empty()) return "no GEMM shape given (M,N,K[:M,N,K...], or a file with one a line)";
      return "";
    },
    "M,N,K[:M,N,K...]|FILE");

}  // namespace gpubench
