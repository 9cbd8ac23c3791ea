#pragma once
// Reading and writing results documents. Writes go to a temporary file beside the target, which is flushed to
// disk and then renamed over it, so a reader never sees half a document and a failed write loses nothing.
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/results/results_document.hpp"

namespace gpubench {

// Limits on what a reader accepts, so that a damaged or hostile file is an InputError, not a crash or a hang.
// Nesting: gpubench documents nest 6 deep; nlohmann/json copies and prints recursively, so 100,000 nested
// arrays overflow the stack. Size: a stress run of any length writes at most about 24 MB a GPU (its last day of
// telemetry as read, earlier days in buckets: harness/stress/bounded_series.hpp), so a month on 8 GPUs is 187 MB,
// which show and report read within 620 MiB (the parsed document takes a few times its text). The limit stays
// above that for the documents of older versions, which kept every reading (about 150 bytes each): a week on
// 8 GPUs, 0.7 GiB.
inline constexpr int kDeepestJsonNesting = 64;
inline constexpr std::size_t kLargestJsonFile = std::size_t{1} << 30;

// Throws InputError (file, field, advice) on a missing, unparsable or invalid file, and on anything that is
// not a regular file (a FIFO would block, /dev/zero never ends).
ResultsDocument read_results_file(const std::string& path);
nlohmann::json read_json_file(const std::string& path);
// The text of a JSON document read from `source` (a file name, for messages), with the same limits.
nlohmann::json parse_json_text(const std::string& text, const std::string& source);
// The bytes of a regular file of at most kLargestJsonFile bytes; InputError otherwise.
std::string read_regular_file(const std::string& path);

// A document's "schema": "" when it has none (not a gpubench document); InputError when it is not a string.
std::string document_schema(const nlohmann::json& document, const std::string& source);

// The *.json regular files directly in `directory`, sorted. Entries that are not regular files (FIFOs,
// devices, directories, dangling links) are left out, each with the reason in `left_out` when given.
// Throws InputError when the directory cannot be read.
std::vector<std::string> json_files_in(const std::string& directory, std::vector<std::string>* left_out = nullptr);
// The same through every subfolder, at any depth, as `--results-dir` lays runs out (DIR/HOST/RUN.json); a run's
// log folders (*.logs) and symbolic links to folders are not searched. A subfolder that cannot be read is named in
// `left_out`; only the top one throws.
std::vector<std::string> json_files_under(const std::string& directory, std::vector<std::string>* left_out = nullptr);

// Writes what `write` produces to `path` through a temporary file in the same folder: written, fsync'ed,
// renamed over `path`, and the folder fsync'ed. When `path` is a symbolic link the file it points to is
// replaced and the link kept. Nothing is left behind when anything fails. Throws OutputError naming the path.
void write_text_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);
// The file write_text_atomically replaces for `path`: `path`, or where its symbolic links lead.
std::string write_target(const std::string& path);
void write_json_atomically(const nlohmann::json& json, const std::string& path);

}  // namespace gpubench
