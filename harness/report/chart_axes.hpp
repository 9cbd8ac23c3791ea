#pragma once
// The axes of `report`'s charts (svg_chart.hpp draws them): where a value lies between an axis's ends, and the
// ticks it labels. A linear axis always holds zero, so that two figures 0.4 % apart look 0.4 % apart rather than
// like a cliff between an arbitrary minimum and the maximum; a logarithmic one (figures that span two decades or
// more) runs between powers of ten. Sizes in bytes lie on a log scale, ticked at the sizes measured. Header-only.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace gpubench {

struct ChartAxis {
  double low = 0;
  double high = 1;
  bool log = false;
  std::vector<double> ticks;  // ascending, each within [low, high]

  // 0 at `low`, 1 at `high`.
  double fraction(double value) const {
    if (log) return (std::log(value) - std::log(low)) / (std::log(high) - std::log(low));
    return (value - low) / (high - low);
  }
};

// The smallest of 1, 2, 2.5 and 5 times a power of ten that is at least `rough` (> 0).
inline double nice_step(double rough) {
  const double power = std::pow(10.0, std::floor(std::log10(rough)));
  for (double multiple : {1.0, 2.0, 2.5, 5.0}) {
    if (multiple * power >= rough * (1 - 1e-9)) return multiple * power;
  }
  return 10 * power;
}

// From zero (or `lowest`, when it is below zero) to `highest`, both rounded out to a step of about a fifth of it.
inline ChartAxis linear_axis(double lowest, double highest) {
  ChartAxis axis;
  double low = std::min(0.0, lowest);
  double high = std::max(0.0, highest);
  if (!(high > low)) high = low + 1;
  const double step = nice_step((high - low) / 5);
  const long first = static_cast<long>(std::floor(low / step + 1e-9));
  const long last = static_cast<long>(std::ceil(high / step - 1e-9));
  axis.low = first * step;
  axis.high = last * step;
  for (long k = first; k <= last; ++k) axis.ticks.push_back(k * step);
  return axis;
}

// Between the powers of ten around the positive values, a tick at each.
inline ChartAxis log_axis(double lowest_positive, double highest) {
  ChartAxis axis;
  axis.log = true;
  const int first = static_cast<int>(std::floor(std::log10(lowest_positive) + 1e-9));
  int last = static_cast<int>(std::ceil(std::log10(highest) - 1e-9));
  if (last <= first) last = first + 1;
  axis.low = std::pow(10.0, first);
  axis.high = std::pow(10.0, last);
  for (int k = first; k <= last; ++k) axis.ticks.push_back(std::pow(10.0, k));
  return axis;
}

// Sizes on a log scale, a little beyond the smallest and largest, a tick at each size.
inline ChartAxis bytes_axis(std::vector<double> sizes) {
  ChartAxis axis;
  axis.log = true;
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  if (sizes.empty() || sizes.front() <= 0) return linear_axis(0, 1);
  axis.low = sizes.front() / (sizes.size() == 1 ? 2 : 1.3);
  axis.high = sizes.back() * (sizes.size() == 1 ? 2 : 1.3);
  axis.ticks = sizes;
  return axis;
}

// "4 KiB", "1 GiB": sizes as metric ids write them.
inline std::string bytes_text(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && std::fmod(bytes, 1024) == 0 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  char text[48];
  std::snprintf(text, sizeof text, "%g %s", bytes, units[unit]);
  return text;
}

// A tick's label: "0", "2.5", "4000", "1e-05".
inline std::string tick_text(double value) {
  char text[48];
  std::snprintf(text, sizeof text, "%g", std::fabs(value) < 1e-12 ? 0.0 : value);
  return text;
}

}  // namespace gpubench
