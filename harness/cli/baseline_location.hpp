#pragma once
// Where check and acceptance look for baselines when --baseline is not given.
#include <string>

#include "harness/baseline/machine_kind.hpp"

namespace gpubench {

// The first of: $GPUBENCH_BASELINES, as given; the installed baselines, found from the program's own folder
// (PREFIX/bin/gpubench -> PREFIX/share/gpubench/baselines, as `cmake --install` lays them out); the baselines/
// folder of the source tree this program was built from, for a build tree. The working directory plays no part.
// Throws InputError naming the places looked in when none of them is a folder.
std::string default_baseline_location();

// The node kind's baseline, from `given` (--baseline: a file or a folder) or the default location. Where it only lends
// its rules (check --against, --fleet, compare), a default location that does not exist is no error: there is simply
// none (an empty path). Each unreadable file of a folder is named on standard error, by `command`.
BaselineChoice kind_baseline(const MachineKind& kind, const std::string& given, bool only_rules, const std::string& command);

}  // namespace gpubench
