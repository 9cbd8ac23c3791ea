#pragma once
// Transfer sizes as they appear in metric ids ("64KiB", "1GiB"), and how many back-to-back copies a timed
// iteration holds so that small copies are not lost in the launch and event overhead.
#include <algorithm>
#include <cstddef>
#include <string>

namespace gpubench {

inline constexpr std::size_t kKiB = 1024;
inline constexpr std::size_t kMiB = 1024 * kKiB;
inline constexpr std::size_t kGiB = 1024 * kMiB;

inline std::string size_name(std::size_t bytes) {
  if (bytes % kGiB == 0) return std::to_string(bytes / kGiB) + "GiB";
  if (bytes % kMiB == 0) return std::to_string(bytes / kMiB) + "MiB";
  if (bytes % kKiB == 0) return std::to_string(bytes / kKiB) + "KiB";
  return std::to_string(bytes) + "B";
}

// Up to 64 copies, or as many as move 64 MiB, whichever is fewer; at least one. One iteration then outlasts
// the event timer's resolution, and the cap keeps what waits behind a closed copy gate well inside a
// stream's work queue (a full queue would block the host before it could open the gate).
inline std::size_t copies_per_iteration(std::size_t bytes) {
  constexpr std::size_t kBatchBytes = 64 * kMiB;
  constexpr std::size_t kMaxBatch = 64;
  return std::clamp<std::size_t>(kBatchBytes / bytes, 1, kMaxBatch);
}

}  // namespace gpubench
