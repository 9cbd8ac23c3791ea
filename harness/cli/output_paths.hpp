#pragma once
// Output files must not be any of the command's input files, nor each other: writing one would destroy what
// the command read (`baseline create h1.json h2.json -o h1.json`) or what it wrote a moment before. And an output
// that cannot be written is found before the command starts its work, not after an hour of it.
#include <string>
#include <utility>
#include <vector>

namespace gpubench {

// `outputs`: (option, path) pairs, an empty path meaning the option was not given. Throws UsageError naming
// the option and both paths. Paths are the same file when they name one inode (through links, `..`, hard
// links) or, for outputs that do not exist yet, resolve to the same place.
void refuse_outputs_over_inputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                                const std::vector<std::string>& inputs);

// Checks that `path` can be written as an output file: a file can be made in its folder (which must exist) and it
// is not a directory, FIFO or device. Throws OutputError naming `option`, the path and the reason.
void check_output_file(const std::string& option, const std::string& path);

// Checks that the folder `path` is there and a file can be made in it, or that it can be made: the nearest folder
// above it that is there takes a new file. Makes nothing (a run that then finds no GPU leaves no folder behind).
// Throws OutputError naming `option`, the path and the reason.
void check_output_folder(const std::string& option, const std::string& path);

}  // namespace gpubench
