#pragma once
// Where check and acceptance look for baselines when --baseline is not given.
#include <string>

namespace gpubench {

// The first of: $GPUBENCH_BASELINES, as given; the installed baselines, found from the program's own folder
// (PREFIX/bin/gpubench -> PREFIX/share/gpubench/baselines, as `cmake --install` lays them out); the baselines/
// folder of the source tree this program was built from, for a build tree. The working directory plays no part.
// Throws InputError naming the places looked in when none of them is a folder.
std::string default_baseline_location();

}  // namespace gpubench
