#pragma once
// Asks gpubench-micro which benchmarks it has (--benchmark_list_tests), so the harness never keeps its own
// copy of the names.
#include <map>
#include <string>
#include <vector>

namespace gpubench {

// Names with Google Benchmark's suffixes removed. Throws std::runtime_error when gpubench-micro cannot run.
std::vector<std::string> list_micro_benchmarks(const std::string& micro_path, const std::map<std::string, std::string>& environment);

// The names that belong to `family` ("memory" -> "memory/...") and match `filter` (a regex searched in
// the name; empty matches all). Throws std::invalid_argument for a bad regex.
std::vector<std::string> select_benchmarks(const std::vector<std::string>& names, const std::string& family,
                                           const std::string& filter);

// An anchored alternation that matches exactly these names, for --benchmark_filter.
std::string exact_filter(const std::vector<std::string>& names);

// Where gpubench-micro is: $GPUBENCH_MICRO, else beside the running executable.
std::string default_micro_path();

}  // namespace gpubench
