#pragma once
// The GPU part of a metric id, read by hand rather than by std::regex: libstdc++'s regex recurses once per
// character, so a long id from a results file would overflow the stack. An index has at most kMaxGpuDigits
// digits; a longer run of digits is no GPU index, not an error.
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace gpubench {

inline constexpr std::size_t kMaxGpuDigits = 6;

// "gpu3" -> 3; anything else (including "gpu", "gpu3a" or "gpu" and seven digits) -> nullopt.
std::optional<int> parse_gpu_segment(std::string_view segment);

// "gpu0-gpu1" -> {0, 1}; anything else -> nullopt.
std::optional<std::pair<int, int>> parse_gpu_pair_segment(std::string_view segment);

}  // namespace gpubench
