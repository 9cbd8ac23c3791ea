#pragma once
// Where the running program is: gpubench-micro is looked for beside it, and an installed gpubench finds its
// baselines relative to it (bin/gpubench -> share/gpubench/baselines), wherever the prefix was put.
#include <string>

namespace gpubench {

// The folder of the running executable (/proc/self/exe, links resolved), without a trailing '/'; "." when it
// cannot be read.
std::string program_directory();

}  // namespace gpubench
