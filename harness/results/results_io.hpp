#pragma once
// Reading and writing results documents. Writes go to a temporary file beside the target, which is then
// renamed over it, so a reader never sees half a document and an interrupted write loses nothing.
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/results/results_document.hpp"

namespace gpubench {

// Throws InputError (file, field, advice) on a missing, unparsable or invalid file.
ResultsDocument read_results_file(const std::string& path);
nlohmann::json read_json_file(const std::string& path);

// The *.json files directly in `directory`, sorted. Throws InputError when it cannot be read.
std::vector<std::string> json_files_in(const std::string& directory);

// Writes what `write` produces to `path` through a temporary file and a rename; the temporary file is removed
// when anything fails. Throws std::runtime_error naming the path.
void write_text_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);
void write_json_atomically(const nlohmann::json& json, const std::string& path);

}  // namespace gpubench
