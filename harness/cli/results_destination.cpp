#include "harness/cli/results_destination.hpp"

#include <filesystem>

#include "harness/cli/output_paths.hpp"
#include "harness/runner/run_record.hpp"

namespace gpubench {

void add_results_destination_options(CLI::App& command, ResultsDestination& destination, const std::string& suffix) {
  destination.suffix = suffix;
  CLI::Option* output =
      command.add_option("-o,--output", destination.output, "results file (default: gpubench-HOST-TIME" + suffix + ".json)");
  command.add_option("--results-dir", destination.results_dir,
                     "keep the results file in a tree of runs instead, as DIR/HOST/RUN_ID" + suffix +
                         ".json, making the folders (`gpubench history DIR` reads the tree)")
      ->excludes(output);
}

std::string results_path(const ResultsDestination& destination, const ResultsDocument& document) {
  if (!destination.output.empty()) return destination.output;
  if (!destination.results_dir.empty()) return results_path_in(destination.results_dir, document, destination.suffix);
  return default_output_stem(document) + destination.suffix + ".json";
}

void check_results_destination(const ResultsDestination& destination) {
  if (!destination.output.empty()) {
    check_output_file("-o", destination.output);
  } else if (!destination.results_dir.empty()) {
    check_output_folder("--results-dir", (std::filesystem::path(destination.results_dir) / host_name()).string());
  } else {
    std::error_code error;
    check_output_folder("the working directory, where the results go without -o or --results-dir",
                        std::filesystem::current_path(error).string());
  }
}

}  // namespace gpubench
