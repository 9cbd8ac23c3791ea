#pragma once
// A relative deviation from a reference value, for the verdicts that compare a GPU with its peers (fleet, link
// symmetry): which way is worse, and how it is written.
#include <cstddef>
#include <sstream>
#include <string>

#include "benchmarks/common/benchmark_label.hpp"

namespace gpubench {

// `deviation` (value / reference - 1) turned positive when it is the bad direction for this figure.
inline double worseness(double deviation, Better better) { return better == Better::Higher ? -deviation : deviation; }

// "391.2 GB/s": a reference value as the findings write it, four significant digits.
inline std::string value_with_unit(double value, const std::string& unit) {
  std::ostringstream out;
  out.precision(4);
  out << value << ' ' << unit;
  return out.str();
}

// What a GPU is held against when it is compared with its siblings: "the other GPU", or "the median of the other 7
// GPUs". The others alone, not every GPU: with two, the median of all is their mean, and a slow GPU would drag its
// own reference down by half its shortfall.
inline std::string against_other_gpus(std::size_t others) {
  return others == 1 ? "the other GPU" : "the median of the other " + std::to_string(others) + " GPUs";
}

// "+4.2 % against <against>".
inline std::string describe_deviation(double deviation, const std::string& against) {
  std::ostringstream out;
  out.precision(1);
  out << std::fixed << (deviation >= 0 ? "+" : "") << 100 * deviation << " % against " << against;
  return out.str();
}

}  // namespace gpubench
