#include "harness/runner/micro_listing.hpp"

#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "harness/results/gbench_import.hpp"
#include "harness/results/id_pattern.hpp"
#include "harness/runner/child_process.hpp"
#include "harness/runner/program_directory.hpp"

namespace gpubench {

std::vector<std::string> list_micro_benchmarks(const std::string& micro_path, const std::map<std::string, std::string>& environment) {
  if (access(micro_path.c_str(), X_OK) != 0) {
    throw std::runtime_error("gpubench-micro not found at " + micro_path + " (build it, or set GPUBENCH_MICRO)");
  }
  int exit_code = 0;
  const std::string text = capture_output({micro_path, "--benchmark_list_tests=true"}, environment, &exit_code);
  if (exit_code != 0) {
    throw std::runtime_error(micro_path + " --benchmark_list_tests exited with " + std::to_string(exit_code));
  }
  std::vector<std::string> names;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) names.push_back(strip_benchmark_suffixes(line));
  }
  return names;
}

std::vector<std::string> select_benchmarks(const std::vector<std::string>& names, const std::string& family,
                                           const std::string& filter) {
  std::optional<IdPattern> pattern;
  try {
    pattern.emplace(filter);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(std::string("--filter ") + error.what());
  }
  std::vector<std::string> selected;
  const std::string prefix = family + "/";
  for (const std::string& name : names) {
    if (name.rfind(prefix, 0) == 0 && pattern->matches(name)) selected.push_back(name);
  }
  return selected;
}

std::string exact_filter(const std::vector<std::string>& names) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  std::string out = "^(";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) out += "|";
    out += std::regex_replace(names[i], special, "\\$&");
  }
  return out + ")(/|$)";
}

std::string child_filter(const std::vector<std::string>& listed, const std::string& family,
                         const std::vector<std::string>& selected) {
  if (selected.size() == select_benchmarks(listed, family, "").size()) return "^" + family + "/";
  return exact_filter(selected);
}

std::string default_micro_path() {
  if (const char* path = std::getenv("GPUBENCH_MICRO"); path != nullptr && *path != '\0') return path;
  return program_directory() + "/gpubench-micro";
}

}  // namespace gpubench
