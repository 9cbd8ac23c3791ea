#pragma once
// A new results document for a run about to start: its identity (id, host, time, version, command line)
// and the environment fingerprint of the GPUs it will use. Shared by run, stress and acceptance.
#include <string>
#include <vector>

#include "harness/results/results_document.hpp"

namespace gpubench {

class NvmlLibrary;

ResultsDocument start_results_document(const std::vector<std::string>& command_line, const std::string& suite,
                                       const std::vector<int>& devices, const NvmlLibrary* nvml, const std::string& nvml_error);

// Marks the document finished now.
void finish_results_document(ResultsDocument& document);

// "gpubench-HOST-20261129T170000Z" for default output names.
std::string default_output_stem(const ResultsDocument& document);

// DIR/HOST/RUN_ID<suffix>.json, where `--results-dir DIR` keeps a run: a folder per host, in which the runs sort
// by their start (a run id begins with its UTC start time, 20261129T170000Z-HOST-PID). Makes the folders; throws
// OutputError naming the folder when it cannot.
std::string results_path_in(const std::string& directory, const ResultsDocument& document, const std::string& suffix);

std::string utc_now(const char* strftime_format);

// This machine's host name ("unknown-host" when it has none).
std::string host_name();

}  // namespace gpubench
