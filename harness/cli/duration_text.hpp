#pragma once
// A duration as people type it: "90s", "10m", "1h30m", "2h15m30s", "1d" or a bare number of seconds. At most 30
// days, which also keeps deadlines far from overflowing. Header-only so the unit tests can reach it.
#include <chrono>
#include <stdexcept>
#include <string>

namespace gpubench {

inline std::chrono::seconds parse_duration(const std::string& text) {
  const auto refuse = [&text](const std::string& why) {
    return std::invalid_argument("'" + text + "' " + why + " (use e.g. 90s, 10m, 1h30m or 1d)");
  };
  constexpr long long kLongest = 30LL * 24 * 3600;
  long long total = 0;
  std::size_t i = 0;
  int last_scale = 0;  // units must go from larger to smaller, each once: "1h30m", not "30m1h" or "1h1h"
  while (i < text.size()) {
    long long value = 0;
    const std::size_t digits_start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (value > kLongest) throw std::invalid_argument("'" + text + "' is longer than 30 days");
      value = value * 10 + (text[i++] - '0');
    }
    if (i == digits_start) throw refuse("is not a duration");
    int scale = 1;
    if (i < text.size()) {
      switch (text[i++]) {
        case 'd': scale = 86400; break;
        case 'h': scale = 3600; break;
        case 'm': scale = 60; break;
        case 's': scale = 1; break;
        default: throw refuse("is not a duration");
      }
    } else if (digits_start != 0) {
      throw refuse("ends in a number without its unit");
    }
    if (last_scale != 0 && scale >= last_scale) throw refuse("is not a duration");
    last_scale = scale;
    if (value > kLongest / scale || total + value * scale > kLongest) {
      throw std::invalid_argument("'" + text + "' is longer than 30 days");
    }
    total += value * scale;
  }
  if (total <= 0) throw refuse("is not a positive duration");
  return std::chrono::seconds(total);
}

}  // namespace gpubench
