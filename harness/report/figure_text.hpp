#pragma once
// A figure as text: in six significant digits ("4312.5", "1.2e-05"), as the files for machines and CI summaries
// print it, or with as many decimals as its size needs, as the tables people read print it.
#include <cmath>
#include <cstdio>
#include <string>

namespace gpubench {

inline std::string six_digits(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

// One decimal from 100 up, two from 1, four below: "4312.5", "55.21", "0.0123".
inline std::string readable_figure(double value) {
  const int decimals = std::fabs(value) >= 100 ? 1 : (std::fabs(value) >= 1 ? 2 : 4);
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// A fraction as a percentage with one decimal: "69.7 %".
inline std::string percent_text(double fraction) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f %%", 100 * fraction);
  return text;
}

}  // namespace gpubench
