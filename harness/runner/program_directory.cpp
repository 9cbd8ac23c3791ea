#include "harness/runner/program_directory.hpp"

#include <unistd.h>

namespace gpubench {

std::string program_directory() {
  char self[4096] = {};
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return ".";
  const std::string path(self, static_cast<std::size_t>(n));
  const std::size_t slash = path.find_last_of('/');
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace gpubench
