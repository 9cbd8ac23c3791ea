#pragma once
// Parses a --devices / GPUBENCH_DEVICES list such as "0,2" or "0-3".
#include <string>
#include <vector>

namespace gpubench {

// Empty text selects every visible device. Throws std::invalid_argument naming the bad item; an index
// at or past `visible` is rejected unless visible is negative (device count unknown), and so is an index named
// twice ("0,0", "0-2,1").
std::vector<int> parse_device_list(const std::string& text, int visible);

std::string format_device_list(const std::vector<int>& devices);

}  // namespace gpubench
