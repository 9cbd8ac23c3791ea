#pragma once
// An output file that cannot be written (missing folder, no permission, a directory in the way, a full disk):
// names the path and the reason. The CLI exits 2 on it, as for a bad input file: the command line named it.
#include <stdexcept>
#include <string>

namespace gpubench {

class OutputError : public std::runtime_error {
 public:
  OutputError(const std::string& path, const std::string& problem) : std::runtime_error("cannot write " + path + ": " + problem) {}
};

}  // namespace gpubench
