#pragma once
// Small pieces several commands share: loading results files, listing a directory, writing an output file
// atomically.
#include <atomic>
#include <chrono>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/baseline/baseline_builder.hpp"

namespace gpubench {

// Throws InputError naming the first bad file, and Interrupted when `stop` is set between two files.
std::vector<SourcedResults> load_results_files(const std::vector<std::string>& paths, const std::atomic<bool>& stop);

// The GPUs a --devices value selects among `visible`; a bad value is a UsageError naming the option.
std::vector<int> selected_devices(const std::string& devices_option, int visible);

}  // namespace gpubench
