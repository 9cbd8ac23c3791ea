#include "harness/cli/cli_support.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <stdexcept>

#include "benchmarks/common/device_selection.hpp"
#include "harness/cli/exit_codes.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {

std::vector<SourcedResults> load_results_files(const std::vector<std::string>& paths, const std::atomic<bool>& stop) {
  std::vector<SourcedResults> runs;
  for (const std::string& path : paths) {
    if (stop.load()) throw Interrupted();
    runs.push_back({path, read_results_file(path)});
  }
  return runs;
}

std::vector<int> selected_devices(const std::string& devices_option, int visible) {
  try {
    return parse_device_list(devices_option, visible);
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--devices ") + error.what());
  }
}

}  // namespace gpubench
