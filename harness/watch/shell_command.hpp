#pragma once
// The watched command as a person would type it again: each word as it is when it holds only characters a shell
// leaves alone, else in single quotes ("python3 train.py --name 'run 2'").
#include <string>
#include <vector>

namespace gpubench {

std::string shell_command(const std::vector<std::string>& words);

}  // namespace gpubench
