#include "harness/acceptance/dcgm_diag.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

#include "harness/results/string_field.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// 3 or "3"; anything else is no id.
std::optional<int> id_of(const json& value) {
  if (value.is_number_integer()) return value.get<int>();
  if (!value.is_string()) return std::nullopt;
  const std::string text = value.get<std::string>();
  if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stoi(text);
}

// "gpu_id": "0" (DCGM 3), "gpu_ids": "0,1,2,3" (DCGM 3's software tests), "entity_group": "GPU" with
// "entity_id": 0 (DCGM 4). A result with none of them belongs to the node.
std::vector<int> gpus_of(const json& result) {
  std::vector<int> gpus;
  if (result.contains("entity_group")) {
    if (string_field(result, "entity_group") == "GPU" && result.contains("entity_id")) {
      if (const std::optional<int> id = id_of(result.at("entity_id"))) gpus.push_back(*id);
    }
    return gpus;
  }
  if (result.contains("gpu_id")) {
    if (const std::optional<int> id = id_of(result.at("gpu_id"))) gpus.push_back(*id);
  } else if (result.contains("gpu_ids")) {
    const json& ids = result.at("gpu_ids");
    if (ids.is_array()) {
      for (const json& id : ids) {
        if (const std::optional<int> one = id_of(id)) gpus.push_back(*one);
      }
    } else {
      std::istringstream list(ids.is_string() ? ids.get<std::string>() : "");
      for (std::string id; std::getline(list, id, ',');) {
        if (const std::optional<int> one = id_of(json(id))) gpus.push_back(*one);
      }
    }
  }
  return gpus;
}

std::vector<std::string> messages_of(const json& result) {
  std::vector<std::string> messages;
  if (result.contains("warnings") && result.at("warnings").is_array()) {
    for (const json& warning : result.at("warnings")) {
      // DCGM 3 wrote a software test's message under "warnings" inside the warning object, a GPU test's under "warning".
      std::string message = string_field(warning, "warning");
      if (message.empty()) message = string_field(warning, "warnings");
      if (message.empty()) continue;
      if (warning.contains("error_id") && warning.at("error_id").is_number_integer()) {
        message += " (DCGM error " + std::to_string(warning.at("error_id").get<int>()) + ")";
      }
      messages.push_back(message);
    }
  }
  if (result.contains("info")) {
    const json& info = result.at("info");
    if (info.is_string() && !info.get<std::string>().empty()) messages.push_back(info.get<std::string>());
    if (info.is_array()) {
      for (const json& line : info) {
        if (line.is_string() && !line.get<std::string>().empty()) messages.push_back(line.get<std::string>());
      }
    }
  }
  return messages;
}

void read_serials(const json& document, DcgmDiagReport& report) {
  if (!document.contains("entity_groups") || !document.at("entity_groups").is_array()) return;
  for (const json& group : document.at("entity_groups")) {
    if (string_field(group, "entity_group") != "GPU" || !group.contains("entities") || !group.at("entities").is_array()) continue;
    for (const json& entity : group.at("entities")) {
      if (!entity.is_object() || !entity.contains("entity_id")) continue;
      const std::optional<int> id = id_of(entity.at("entity_id"));
      const std::string serial = string_field(entity, "serial_num");
      if (id && !serial.empty()) report.serials[*id] = serial;
    }
  }
}

}  // namespace

DcgmDiagReport parse_dcgm_diag(const json& document) {
  const char* const layouts[] = {"DCGM Diagnostic", "DCGM GPU Diagnostic"};
  const json* diagnostic = nullptr;
  for (const char* key : layouts) {
    if (document.is_object() && document.contains(key) && document.at(key).is_object()) diagnostic = &document.at(key);
  }
  if (diagnostic == nullptr) throw std::invalid_argument("neither \"DCGM Diagnostic\" nor \"DCGM GPU Diagnostic\" in dcgmi's output");
  DcgmDiagReport report;
  report.runtime_error = string_field(*diagnostic, "runtime_error");
  read_serials(document, report);
  if (!diagnostic->contains("test_categories")) {
    if (report.runtime_error.empty()) throw std::invalid_argument("no \"test_categories\" and no \"runtime_error\" in dcgmi's output");
    return report;
  }
  const json& categories = diagnostic->at("test_categories");
  if (!categories.is_array()) throw std::invalid_argument("\"test_categories\" is not an array");
  for (const json& category : categories) {
    if (!category.is_object() || !category.contains("tests") || !category.at("tests").is_array()) continue;
    for (const json& test : category.at("tests")) {
      if (!test.is_object() || !test.contains("results") || !test.at("results").is_array()) continue;
      for (const json& result : test.at("results")) {
        if (!result.is_object()) continue;
        report.results.push_back({string_field(category, "category"), string_field(test, "name"), gpus_of(result), string_field(result, "status"),
                                  messages_of(result)});
      }
    }
  }
  return report;
}

Grade grade_of_dcgm_status(const std::string& status) {
  const std::string word = lower(status);
  if (word == "fail") return Grade::Fail;
  if (word == "warn" || word == "warning") return Grade::Warn;
  return Grade::Pass;
}

std::map<int, int> dcgm_to_cuda_indexes(const DcgmDiagReport& report, const std::vector<GpuFacts>& gpus) {
  std::map<int, int> cuda_index;
  for (const GpuFacts& gpu : gpus) {
    const auto by_serial = std::find_if(report.serials.begin(), report.serials.end(),
                                        [&gpu](const auto& entry) { return !gpu.serial.empty() && entry.second == gpu.serial; });
    if (by_serial != report.serials.end()) {
      cuda_index[by_serial->first] = gpu.index;
    } else if (gpu.nvml_index.value) {
      cuda_index[static_cast<int>(*gpu.nvml_index.value)] = gpu.index;
    }
  }
  return cuda_index;
}

}  // namespace gpubench
