#pragma once
// A relative deviation from a reference value, for the verdicts that compare a GPU with its peers (fleet, link
// symmetry): which way is worse, and how it is written.
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

// "+4.2 % against <against>".
inline std::string describe_deviation(double deviation, const std::string& against) {
  std::ostringstream out;
  out.precision(1);
  out << std::fixed << (deviation >= 0 ? "+" : "") << 100 * deviation << " % against " << against;
  return out.str();
}

}  // namespace gpubench
