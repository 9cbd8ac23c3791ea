#include "harness/cli/baseline_location.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <vector>

#include "harness/results/input_error.hpp"
#include "harness/runner/program_directory.hpp"

// Both set by harness/CMakeLists.txt: the way from the installed programs' folder to the installed baselines
// (GNUInstallDirs: "../share/gpubench/baselines"), and the source tree's baselines folder.
#ifndef GPUBENCH_BASELINES_FROM_BINDIR
#error "GPUBENCH_BASELINES_FROM_BINDIR is not defined"
#endif
#ifndef GPUBENCH_SOURCE_BASELINES
#error "GPUBENCH_SOURCE_BASELINES is not defined"
#endif

namespace gpubench {

std::string default_baseline_location() {
  if (const char* env = std::getenv("GPUBENCH_BASELINES"); env != nullptr && *env != '\0') return env;
  const std::vector<std::string> candidates = {program_directory() + "/" + GPUBENCH_BASELINES_FROM_BINDIR,
                                               GPUBENCH_SOURCE_BASELINES};
  std::error_code error;
  for (const std::string& candidate : candidates) {
    if (std::filesystem::is_directory(candidate, error)) return candidate;
  }
  throw InputError(candidates[0], "", "no baselines folder there, nor at " + candidates[1],
                   "give one with --baseline FILE|DIR or GPUBENCH_BASELINES=DIR");
}

BaselineChoice kind_baseline(const MachineKind& kind, const std::string& given, bool only_rules, const std::string& command) {
  const std::string where = given.empty() ? default_baseline_location() : given;
  if (only_rules && given.empty() && !std::filesystem::exists(where)) return {};
  BaselineChoice choice = choose_baseline(kind, where);
  for (const std::string& why : choice.skipped) std::cerr << "gpubench: " << command << ": skipping " << why << "\n";
  return choice;
}

}  // namespace gpubench
