#pragma once
// Linux CPU lists as sysfs and taskset write them: "0-3,8,10-11".
#include <string>
#include <vector>

namespace gpubench {

// Sorted, distinct CPU numbers. Throws std::invalid_argument naming the bad item.
std::vector<int> parse_cpu_list(const std::string& text);

// The inverse, with runs folded: {0,1,2,3,8} -> "0-3,8".
std::string format_cpu_list(const std::vector<int>& cpus);

}  // namespace gpubench
