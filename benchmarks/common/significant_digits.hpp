#pragma once
// A figure written into params with a few significant digits ("45.31", "1.2e+03"): enough to read, not so
// many that the noise looks meaningful.
#include <sstream>
#include <string>

namespace gpubench {

inline std::string significant_digits(double value, int digits) {
  std::ostringstream out;
  out.precision(digits);
  out << value;
  return out.str();
}

}  // namespace gpubench
