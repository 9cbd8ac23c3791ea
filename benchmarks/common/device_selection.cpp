#include "benchmarks/common/device_selection.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace gpubench {
namespace {

int parse_index(const std::string& item, const std::string& whole) {
  if (item.empty() || !std::all_of(item.begin(), item.end(), [](unsigned char c) { return std::isdigit(c); }) ||
      item.size() > 4) {
    throw std::invalid_argument("'" + whole + "': '" + item + "' is not a device index (use e.g. 0,1 or 0-3)");
  }
  return std::stoi(item);
}

}  // namespace

std::vector<int> parse_device_list(const std::string& text, int visible) {
  std::vector<int> devices;
  if (text.empty() || text == "all") {
    for (int i = 0; i < visible; ++i) devices.push_back(i);
    return devices;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    start = end + 1;
    const std::size_t dash = item.find('-');
    int first = 0;
    int last = 0;
    if (dash == std::string::npos) {
      first = last = parse_index(item, text);
    } else {
      first = parse_index(item.substr(0, dash), text);
      last = parse_index(item.substr(dash + 1), text);
      if (last < first) throw std::invalid_argument("'" + text + "': range '" + item + "' runs backwards");
    }
    for (int d = first; d <= last; ++d) {
      if (visible >= 0 && d >= visible) {
        throw std::invalid_argument("'" + text + "': device " + std::to_string(d) + " does not exist (" +
                                    std::to_string(visible) + " visible)");
      }
      // "0,0" is most likely a typo for "0,1": a GPU named twice would be measured as if it were two.
      if (std::find(devices.begin(), devices.end(), d) != devices.end()) {
        throw std::invalid_argument("'" + text + "': device " + std::to_string(d) + " is named twice");
      }
      devices.push_back(d);
    }
  }
  return devices;
}

std::string format_device_list(const std::vector<int>& devices) {
  std::string out;
  for (int d : devices) out += (out.empty() ? "" : ",") + std::to_string(d);
  return out;
}

}  // namespace gpubench
