#pragma once
// Reading and writing results documents. Writes go to a temporary file beside the target, which is then
// renamed over it, so a reader never sees half a document and an interrupted write loses nothing.
#include <string>

#include "harness/results/results_document.hpp"

namespace gpubench {

// Throws InputError (file, field, advice) on a missing, unparsable or invalid file.
ResultsDocument read_results_file(const std::string& path);
nlohmann::json read_json_file(const std::string& path);

// Throws std::runtime_error naming the path on failure.
void write_json_atomically(const nlohmann::json& json, const std::string& path);

}  // namespace gpubench
