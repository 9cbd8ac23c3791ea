#include "benchmarks/common/cpu_list.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace gpubench {
namespace {

int cpu_number(const std::string& digits, const std::string& whole) {
  const bool all_digits =
      !digits.empty() && std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  if (!all_digits || digits.size() > 7) throw std::invalid_argument("CPU list '" + whole + "': bad item '" + digits + "'");
  return std::stoi(digits);
}

}  // namespace

std::vector<int> parse_cpu_list(const std::string& text) {
  std::string list = text;
  while (!list.empty() && std::isspace(static_cast<unsigned char>(list.back()))) list.pop_back();
  std::vector<int> cpus;
  for (std::size_t start = 0; start < list.size();) {
    const std::size_t end = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, end - start);
    start = end + 1;
    const std::size_t dash = item.find('-');
    const int first = cpu_number(item.substr(0, dash), text);
    const int last = dash == std::string::npos ? first : cpu_number(item.substr(dash + 1), text);
    if (last < first) throw std::invalid_argument("CPU list '" + text + "': range '" + item + "' runs backwards");
    for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::string format_cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(cpus[i]);
    if (j > i) out += "-" + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace gpubench
