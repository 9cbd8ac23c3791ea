#include "harness/doctor/node_profile.hpp"

#include <cmath>
#include <functional>
#include <map>

#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {
namespace {

const char* const kAdvice = "docs/node-profile.md describes the fields";

std::optional<unsigned> whole_number(const nlohmann::json& value, const std::string& path, const std::string& field, unsigned lowest,
                                     unsigned highest) {
  if (!value.is_number_integer() || value.get<long long>() < lowest || value.get<long long>() > highest) {
    throw InputError(path, field, "expected a whole number from " + std::to_string(lowest) + " to " + std::to_string(highest) +
                     ", found " + value.dump(), kAdvice);
  }
  return static_cast<unsigned>(value.get<long long>());
}

std::optional<std::string> text(const nlohmann::json& value, const std::string& path, const std::string& field) {
  if (!value.is_string() || value.get<std::string>().empty()) {
    throw InputError(path, field, "expected non-empty text, found " + value.dump(), kAdvice);
  }
  return value.get<std::string>();
}

}  // namespace

NodeProfile parse_node_profile(const nlohmann::json& document, const std::string& path) {
  if (!document.is_object()) throw InputError(path, "", "expected a JSON object of expected values", kAdvice);
  NodeProfile profile;
  profile.path = path;
  using Reader = std::function<void(const nlohmann::json&, const std::string&)>;
  const std::map<std::string, Reader> fields = {
      {"schema",
       [&](const nlohmann::json& v, const std::string& f) {
         if (v != kNodeProfileSchema) throw InputError(path, f, "expected \"" + std::string(kNodeProfileSchema) + "\", found " + v.dump(), kAdvice);
       }},
      {"description", [&](const nlohmann::json& v, const std::string& f) { text(v, path, f); }},
      {"gpu_count", [&](const nlohmann::json& v, const std::string& f) { profile.gpu_count = whole_number(v, path, f, 1, 1024); }},
      {"gpu_model", [&](const nlohmann::json& v, const std::string& f) { profile.gpu_model = text(v, path, f); }},
      {"driver_version", [&](const nlohmann::json& v, const std::string& f) { profile.driver_version = text(v, path, f); }},
      {"vbios_version", [&](const nlohmann::json& v, const std::string& f) { profile.vbios_version = text(v, path, f); }},
      {"memory_mib", [&](const nlohmann::json& v, const std::string& f) { profile.memory_mib = whole_number(v, path, f, 1, 1u << 30); }},
      {"nvlinks_per_gpu", [&](const nlohmann::json& v, const std::string& f) { profile.nvlinks_per_gpu = whole_number(v, path, f, 0, 64); }},
      {"nvlink_speed_gb_per_s",
       [&](const nlohmann::json& v, const std::string& f) {
         if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0 || v.get<double>() > 10000) {
           throw InputError(path, f, "expected a number of GB/s above 0, found " + v.dump(), kAdvice);
         }
         profile.nvlink_speed_gb_per_s = v.get<double>();
       }},
      {"pcie_generation", [&](const nlohmann::json& v, const std::string& f) { profile.pcie_generation = whole_number(v, path, f, 1, 8); }},
      {"pcie_width", [&](const nlohmann::json& v, const std::string& f) { profile.pcie_width = whole_number(v, path, f, 1, 32); }},
      {"ecc",
       [&](const nlohmann::json& v, const std::string& f) {
         if (!v.is_boolean()) throw InputError(path, f, "expected true or false, found " + v.dump(), kAdvice);
         profile.ecc = v.get<bool>();
       }},
  };
  for (const auto& [name, value] : document.items()) {
    const auto reader = fields.find(name);
    if (reader == fields.end()) {
      std::string known;
      for (const auto& [field, unused] : fields) known += (known.empty() ? "" : ", ") + field;
      throw InputError(path, name, "not a field of " + std::string(kNodeProfileSchema), "the fields are " + known);
    }
    reader->second(value, name);
  }
  return profile;
}

NodeProfile load_node_profile(const std::string& path) { return parse_node_profile(read_json_file(path), path); }

}  // namespace gpubench
