#pragma once
// A figure in six significant digits ("4312.5", "1.2e-05"), as the files for machines and CI summaries print it.
#include <cstdio>
#include <string>

namespace gpubench {

inline std::string six_digits(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

}  // namespace gpubench
