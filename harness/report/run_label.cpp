#include "harness/report/run_label.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace gpubench {
namespace {

// The environment is kept as read: a GPU without a name (or not an object) is still counted.
std::string describe_gpus(const nlohmann::json& environment) {
  if (!environment.is_object() || !environment.contains("gpus")) return "no GPU";
  const nlohmann::json& gpus = environment["gpus"];
  if (!gpus.is_array() || gpus.empty()) return "no GPU";
  std::vector<std::pair<std::string, int>> models;  // in the order first seen
  for (const nlohmann::json& gpu : gpus) {
    const bool named = gpu.is_object() && gpu.contains("name") && gpu["name"].is_string();
    const std::string name = named ? gpu["name"].get<std::string>() : "unknown GPU";
    const auto seen = std::find_if(models.begin(), models.end(), [&name](const auto& m) { return m.first == name; });
    if (seen == models.end()) {
      models.emplace_back(name, 1);
    } else {
      ++seen->second;
    }
  }
  std::string text;
  for (const auto& [name, count] : models) text += (text.empty() ? "" : ", ") + std::to_string(count) + " x " + name;
  return text;
}

}  // namespace

RunLabel run_label(const ResultsDocument& results, const std::string& path) {
  return {path, results.run.id, results.run.host, results.run.started_at, describe_gpus(results.environment)};
}

std::string describe(const RunLabel& label) {
  return label.path + ": run " + label.run_id + " on " + label.host + " (" + label.gpus + "), started " +
         label.started_at;
}

}  // namespace gpubench
