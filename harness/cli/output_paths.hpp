#pragma once
// Output files must not be any of the command's input files, nor each other: writing one would destroy what
// the command read (`baseline create h1.json h2.json -o h1.json`) or what it wrote a moment before.
#include <string>
#include <utility>
#include <vector>

namespace gpubench {

// `outputs`: (option, path) pairs, an empty path meaning the option was not given. Throws UsageError naming
// the option and both paths. Paths are the same file when they name one inode (through links, `..`, hard
// links) or, for outputs that do not exist yet, resolve to the same place.
void refuse_outputs_over_inputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                                const std::vector<std::string>& inputs);

}  // namespace gpubench
