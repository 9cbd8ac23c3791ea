#pragma once
// A long series thinned for drawing: a stress run keeps a telemetry row a second, 86,400 a day per GPU, which no
// chart needs and a page should not carry. Past `most` points, the series is cut into most / 2 stretches of equal
// length and each keeps its lowest and its highest point, in the order they came, so that a dip in the clock or a
// peak in temperature stays visible however short it was.
#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

namespace gpubench {

struct XySeries {
  std::vector<double> x;
  std::vector<std::optional<double>> y;  // nothing: not read at that x
};

inline XySeries thinned_series(const XySeries& series, std::size_t most) {
  const std::size_t count = series.x.size();
  const std::size_t stretches = most / 2;
  if (count <= most || stretches == 0) return series;
  XySeries kept;
  for (std::size_t s = 0; s < stretches; ++s) {
    const std::size_t begin = s * count / stretches;
    const std::size_t end = (s + 1) * count / stretches;
    std::optional<std::size_t> lowest, highest;
    for (std::size_t i = begin; i < end; ++i) {
      if (!series.y[i]) continue;
      if (!lowest || *series.y[i] < *series.y[*lowest]) lowest = i;
      if (!highest || *series.y[i] > *series.y[*highest]) highest = i;
    }
    if (!lowest) continue;  // nothing read in the whole stretch
    const std::size_t first = std::min(*lowest, *highest);
    const std::size_t last = std::max(*lowest, *highest);
    kept.x.push_back(series.x[first]);
    kept.y.push_back(series.y[first]);
    if (last == first) continue;  // a flat stretch
    kept.x.push_back(series.x[last]);
    kept.y.push_back(series.y[last]);
  }
  return kept;
}

}  // namespace gpubench
