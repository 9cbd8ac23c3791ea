#pragma once
// A size as metric ids spell it ("8B", "4KiB", "1GiB", as benchmarks/common/transfer_sizes.hpp's size_name writes
// them), read back into bytes, so that sizes sort by what they are and not as text.
#include <cstdint>
#include <optional>
#include <string_view>

namespace gpubench {

// nullopt for anything else: no digits, a leading zero, more than nine digits, another unit.
inline std::optional<std::uint64_t> parse_size_segment(std::string_view segment) {
  std::size_t digits = 0;
  while (digits < segment.size() && segment[digits] >= '0' && segment[digits] <= '9') ++digits;
  if (digits == 0 || digits > 9 || segment[0] == '0') return std::nullopt;
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < digits; ++i) count = count * 10 + static_cast<std::uint64_t>(segment[i] - '0');
  const std::string_view unit = segment.substr(digits);
  if (unit == "B") return count;
  if (unit == "KiB") return count << 10;
  if (unit == "MiB") return count << 20;
  if (unit == "GiB") return count << 30;
  return std::nullopt;
}

}  // namespace gpubench
