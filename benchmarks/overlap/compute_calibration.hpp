#pragma once
// How many hash rounds make the overlap family's kernel last as long as its copies: the kernel's time is
// proportional to its rounds (every word goes through all of them), so one timed probe sets the scale.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace gpubench {

// The rounds that take `target_seconds` when `probe_rounds` took `probe_seconds`; at least one, and no more than
// a 32-bit count holds.
inline std::uint32_t rounds_lasting(double target_seconds, std::uint32_t probe_rounds, double probe_seconds) {
  if (probe_seconds <= 0 || target_seconds <= 0) return 1;
  const double rounds = std::round(probe_rounds * (target_seconds / probe_seconds));
  return static_cast<std::uint32_t>(
      std::clamp(rounds, 1.0, static_cast<double>(std::numeric_limits<std::uint32_t>::max())));
}

}  // namespace gpubench
