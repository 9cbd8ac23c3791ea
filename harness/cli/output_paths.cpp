#include "harness/cli/output_paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>  // mkstemp
#include <cstring>
#include <filesystem>

#include "harness/cli/exit_codes.hpp"
#include "harness/results/output_error.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {
namespace {

namespace fs = std::filesystem;

bool same_file(const std::string& a, const std::string& b) {
  std::error_code error;
  if (fs::equivalent(a, b, error)) return true;
  const fs::path x = fs::weakly_canonical(a, error);
  if (error) return false;
  const fs::path y = fs::weakly_canonical(b, error);
  return !error && x == y;
}

// Whether a file can be made in `folder`: one is made and removed, as only that tells (root passes any permission
// check, and /proc or a read-only mount refuse whatever the mode bits say). "" when it can, else the reason.
std::string cannot_make_a_file_in(const fs::path& folder) {
  std::string name = (folder / ".gpubench-write-test-XXXXXX").string();
  const int fd = mkstemp(name.data());
  if (fd < 0) return std::strerror(errno);
  close(fd);
  unlink(name.c_str());
  return "";
}

[[noreturn]] void refuse(const std::string& option, const std::string& path, const std::string& problem) {
  throw OutputError(path, problem + " (" + option + "; give a path you can write to)");
}

}  // namespace

void refuse_outputs_over_inputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                                const std::vector<std::string>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto& [option, path] = outputs[i];
    if (path.empty()) continue;
    for (const std::string& input : inputs) {
      if (!input.empty() && same_file(path, input)) {
        throw UsageError(option + " " + path + " is the input " + input + "; writing it would destroy it (choose another file)");
      }
    }
    for (std::size_t k = 0; k < i; ++k) {
      if (!outputs[k].second.empty() && same_file(path, outputs[k].second)) {
        throw UsageError(option + " " + path + " is also " + outputs[k].first + " " + outputs[k].second + " (choose another file)");
      }
    }
  }
}

void check_output_file(const std::string& option, const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    refuse(option, path, S_ISDIR(info.st_mode) ? "is a directory" : "is not a regular file");
  }
  const fs::path target = write_target(path);
  std::error_code error;
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (!fs::is_directory(folder, error)) refuse(option, path, "no folder " + folder.string());
  const std::string problem = cannot_make_a_file_in(folder);
  if (!problem.empty()) refuse(option, path, "cannot make a file in " + folder.string() + ": " + problem);
}

void check_output_folder(const std::string& option, const std::string& path) {
  if (path.empty()) refuse(option, path, "no folder named");
  std::error_code error;
  fs::path there = fs::absolute(path, error);
  while (!fs::exists(there, error) && there.has_relative_path()) there = there.parent_path();
  if (!fs::is_directory(there, error)) refuse(option, path, there.string() + " is not a folder");
  const std::string problem = cannot_make_a_file_in(there);
  if (problem.empty()) return;
  if (there == fs::absolute(path, error)) refuse(option, path, "cannot make a file in it: " + problem);
  refuse(option, path, "cannot make the folder in " + there.string() + ": " + problem);
}

}  // namespace gpubench
