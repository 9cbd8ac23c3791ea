#pragma once
// Small pieces several commands share: loading results files, listing a directory, writing an output file
// atomically, the current time in UTC.
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/baseline/baseline_builder.hpp"

namespace gpubench {

// Throws InputError naming the first bad file.
std::vector<SourcedResults> load_results_files(const std::vector<std::string>& paths);

// The *.json files directly in `directory`, sorted. Throws InputError when it cannot be read.
std::vector<std::string> json_files_in(const std::string& directory);

// Writes what `write` produces to `path` through a temporary file and a rename.
void write_text_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

std::string utc_timestamp(const char* strftime_format);

}  // namespace gpubench
