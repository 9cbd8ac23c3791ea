#pragma once
// The median of a set of measurements: what the benchmarks (choosing among tuning candidates) and the harness
// (judging repetitions and runs) both decide by.
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace gpubench {

// Throws std::invalid_argument on an empty set.
inline double median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of no values");
  const auto mid = static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  const double upper = values[static_cast<std::size_t>(mid)];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + mid);
  return (lower + upper) / 2;
}

}  // namespace gpubench
