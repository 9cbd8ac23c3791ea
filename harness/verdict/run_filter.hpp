#pragma once
// What the run chose not to measure: the `--filter` its command line gave `gpubench run` (or acceptance). A baseline's
// figure that the filter left out was never meant to be measured, so a check counts it in one line instead of listing
// it as missing: a run of the memory family alone against the one-H200 baseline listed 80 missing rows.
#include <optional>
#include <string>
#include <vector>

namespace gpubench {

// The last --filter of `command_line` ("--filter X" or "--filter=X"), or nothing.
std::optional<std::string> run_filter(const std::vector<std::string>& command_line);

// Whether the run's filter leaves out metric `id` (searched, as `run` searches it, in the id and its benchmark name).
// An unusable filter leaves nothing out: the figures then stay visible as missing.
bool left_out_by_filter(const std::string& filter, const std::string& id);

}  // namespace gpubench
