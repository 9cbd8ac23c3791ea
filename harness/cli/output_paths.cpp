#include "harness/cli/output_paths.hpp"

#include <filesystem>

#include "harness/cli/exit_codes.hpp"

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

}  // namespace gpubench
