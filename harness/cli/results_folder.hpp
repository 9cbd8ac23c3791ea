#pragma once
// Results documents named on the command line as files or as folders, as `history`, `compare` and `report` read
// them. A folder is searched with its subfolders, as `--results-dir` lays runs out (DIR/HOST/RUN_ID.json), runs' log
// folders left out; what in it is not a results document (a baseline, a check report) or cannot be read is named
// on standard error and passed over, so that a nightly folder keeps its history without it. A file named on its own
// must be a good results document. Header-only.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "harness/baseline/baseline_builder.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {

// Every readable results document under `folder`, by path; `command` names who skips the others. Throws
// InputError when there is none, and Interrupted when `stop` is set between two files.
inline std::vector<SourcedResults> results_in_folder(const std::string& folder, const std::string& command,
                                                     const std::atomic<bool>& stop) {
  std::vector<SourcedResults> runs;
  std::vector<std::string> left_out;
  const std::vector<std::string> files = json_files_under(folder, &left_out);
  for (const std::string& why : left_out) std::cerr << "gpubench: " << command << ": skipping " << why << "\n";
  for (const std::string& file : files) {
    if (stop.load()) throw Interrupted();
    try {
      const nlohmann::json document = read_json_file(file);
      if (document_schema(document, file) != kResultsSchema) {
        std::cerr << "gpubench: " << command << ": skipping " << file << ": not a results document\n";
        continue;
      }
      runs.push_back({file, results_from_json(document, file)});
    } catch (const InputError& error) {
      std::cerr << "gpubench: " << command << ": skipping " << error.what() << "\n";
    }
  }
  if (runs.empty()) {
    throw InputError(folder, "", "no readable results document in the directory or its subfolders",
                     "keep the results files of `gpubench run --results-dir DIR` (or `-o`) there");
  }
  return runs;
}

// Each argument's runs in the order given; a folder's runs oldest first (by run.started_at, then path).
inline std::vector<SourcedResults> results_named(const std::vector<std::string>& paths, const std::string& command,
                                                 const std::atomic<bool>& stop) {
  std::vector<SourcedResults> runs;
  for (const std::string& path : paths) {
    if (stop.load()) throw Interrupted();
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) {
      runs.push_back({path, read_results_file(path)});
      continue;
    }
    std::vector<SourcedResults> in_folder = results_in_folder(path, command, stop);
    std::stable_sort(in_folder.begin(), in_folder.end(), [](const SourcedResults& a, const SourcedResults& b) {
      return a.results.run.started_at < b.results.run.started_at;
    });
    for (SourcedResults& run : in_folder) runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace gpubench
