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

// The --benchmark_filter of a family's child: the family's prefix alone when `selected` is every name of `family`
// in `listed`, else exact_filter(selected). The prefix keeps the argument short however many GPUs there are: the
// full p2p suite's exact list is 43 KB on eight GPUs, and past Linux's 128 KiB limit on one argument from about
// fourteen the child would not start.
std::string child_filter(const std::vector<std::string>& listed, const std::string& family,
                         const std::vector<std::string>& selected);

// Where gpubench-micro is: $GPUBENCH_MICRO, else beside the running executable.
std::string default_micro_path();

}  // namespace gpubench
