#pragma once
// Where run, stress and acceptance keep the results document they write: a file named with -o, a tree of runs
// under --results-dir (DIR/HOST/RUN_ID.json, as `history` and `check --fleet` read them), or by default a file
// named after the host and time in the working directory. -o and --results-dir together are refused.
#include <CLI/CLI.hpp>

#include <string>

#include "harness/results/results_document.hpp"

namespace gpubench {

struct ResultsDestination {
  std::string output;       // -o FILE
  std::string results_dir;  // --results-dir DIR
  std::string suffix;       // after the name the command gives a file itself: "-stress" makes RUN_ID-stress.json
};

// Adds -o,--output and --results-dir to `command`; the names the command gives its files end in `suffix`.
void add_results_destination_options(CLI::App& command, ResultsDestination& destination, const std::string& suffix);

// The path to write `document` to: -o's as given; DIR/HOST/RUN_ID<suffix>.json, its folders made; or
// gpubench-HOST-TIME<suffix>.json. Throws OutputError when the folders cannot be made.
std::string results_path(const ResultsDestination& destination, const ResultsDocument& document);

// Before the command starts its work (and before it looks for a GPU): that the results file can be written where
// `destination` puts it (-o's folder, --results-dir's DIR/HOST, or the working directory), making nothing. Throws
// OutputError naming the option, the path and the reason.
void check_results_destination(const ResultsDestination& destination);

}  // namespace gpubench
