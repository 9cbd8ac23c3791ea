#include "harness/baseline/machine_kind.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {

MachineKind machine_kind_of(const ResultsDocument& results, const std::string& source) {
  const nlohmann::json& env = results.environment;
  if (!env.contains("gpus") || !env.at("gpus").is_array() || env.at("gpus").empty()) {
    throw InputError(source, "environment.gpus", "empty: the run saw no GPU, so no baseline can apply");
  }
  MachineKind kind;
  std::set<std::string> models;
  for (const nlohmann::json& gpu : env.at("gpus")) models.insert(gpu.value("name", "unknown"));
  for (const std::string& model : models) kind.gpu_model += (kind.gpu_model.empty() ? "" : " + ") + model;
  kind.gpu_count = static_cast<int>(env.at("gpus").size());
  if (kind.gpu_count == 1) {
    kind.topology = "single";
    return kind;
  }
  std::set<std::string> links;
  if (env.contains("topology") && env.at("topology").contains("links")) {
    for (const nlohmann::json& link : env.at("topology").at("links")) links.insert(link.value("kind", "unknown"));
  }
  for (const std::string& link : links) kind.topology += (kind.topology.empty() ? "" : "+") + link;
  if (kind.topology.empty()) kind.topology = "unknown";
  return kind;
}

std::string describe(const MachineKind& kind) {
  return std::to_string(kind.gpu_count) + " x " + kind.gpu_model + " (" + kind.topology + ")";
}

std::string baseline_file_name(const MachineKind& kind) {
  std::string name;
  for (char c : kind.gpu_model + "-x" + std::to_string(kind.gpu_count) + (kind.gpu_count > 1 ? "-" + kind.topology : "")) {
    const unsigned char u = static_cast<unsigned char>(c);
    name += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '-';
  }
  std::string squeezed;
  for (char c : name) {
    if (c == '-' && !squeezed.empty() && squeezed.back() == '-') continue;
    squeezed += c;
  }
  return squeezed + ".json";
}

namespace {

void consider_baseline(const MachineKind& kind, const std::string& file, bool in_directory, BaselineChoice& choice) {
  const nlohmann::json document = read_json_file(file);
  const std::string schema = document_schema(document, file);
  if (in_directory && schema != kBaselineSchema) {
    // A directory may hold other gpubench documents (results, check reports): they are not candidates.
    choice.considered.push_back(file + ": not a baseline (schema '" + schema + "')");
    return;
  }
  Baseline baseline = baseline_from_json(document, file);
  choice.considered.push_back(file + ": " + describe(baseline.kind));
  if (baseline.kind == kind && choice.path.empty()) {
    choice.path = file;
    choice.baseline = std::move(baseline);
  } else if (in_directory && baseline.kind.gpu_model == kind.gpu_model && !(baseline.kind == kind)) {
    choice.same_model.push_back({file, std::move(baseline)});
  }
}

}  // namespace

BaselineChoice choose_baseline(const MachineKind& kind, const std::string& where) {
  BaselineChoice choice;
  struct stat info {};
  if (stat(where.c_str(), &info) != 0) throw InputError(where, "", "no such baseline file or directory");
  const bool directory = S_ISDIR(info.st_mode);
  // A FIFO or device among the baselines is named and passed over, as a results document there is.
  const std::vector<std::string> files = directory ? json_files_in(where, &choice.considered) : std::vector<std::string>{where};
  for (const std::string& file : files) {
    try {
      consider_baseline(kind, file, directory, choice);
    } catch (const InputError& error) {
      // A file named on its own must be good; in a directory, one bad file does not hide the good ones.
      if (!directory) throw;
      choice.considered.push_back(error.what());
      choice.skipped.push_back(error.what());
    }
  }
  return choice;
}

}  // namespace gpubench
