#pragma once
// A string field of a JSON object read as documents keep it (the environment fingerprint, a baseline's versions, a
// tool's report): "" when the object is not one, or the field is absent or not a string. Header-only.
#include <nlohmann/json.hpp>

#include <string>

namespace gpubench {

inline std::string string_field(const nlohmann::json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return "";
  return object[key].get<std::string>();
}

}  // namespace gpubench
