#include "harness/verdict/run_filter.hpp"

#include <stdexcept>

#include "benchmarks/common/metric_id.hpp"
#include "harness/results/id_pattern.hpp"

namespace gpubench {

std::optional<std::string> run_filter(const std::vector<std::string>& command_line) {
  std::optional<std::string> filter;
  const std::string option = "--filter";
  for (std::size_t i = 0; i < command_line.size(); ++i) {
    if (command_line[i] == option && i + 1 < command_line.size()) {
      filter = command_line[i + 1];
    } else if (command_line[i].rfind(option + "=", 0) == 0) {
      filter = command_line[i].substr(option.size() + 1);
    }
  }
  return filter;
}

bool left_out_by_filter(const std::string& filter, const std::string& id) {
  try {
    const IdPattern pattern(filter);
    return !pattern.matches(id) && !pattern.matches(MetricId(id).benchmark());
  } catch (const std::invalid_argument&) {
    return false;
  }
}

}  // namespace gpubench
