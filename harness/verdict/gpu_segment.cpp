#include "harness/verdict/gpu_segment.hpp"

namespace gpubench {

std::optional<int> parse_gpu_segment(std::string_view segment) {
  constexpr std::string_view prefix = "gpu";
  if (segment.substr(0, prefix.size()) != prefix) return std::nullopt;
  const std::string_view digits = segment.substr(prefix.size());
  if (digits.empty() || digits.size() > kMaxGpuDigits) return std::nullopt;
  int index = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    index = index * 10 + (c - '0');
  }
  return index;
}

std::optional<std::pair<int, int>> parse_gpu_pair_segment(std::string_view segment) {
  const std::size_t dash = segment.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const std::optional<int> from = parse_gpu_segment(segment.substr(0, dash));
  const std::optional<int> to = parse_gpu_segment(segment.substr(dash + 1));
  if (!from || !to) return std::nullopt;
  return std::make_pair(*from, *to);
}

}  // namespace gpubench
