#include "harness/results/other_processes.hpp"

#include <algorithm>
#include <cstdio>

#include "harness/results/input_error.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

std::string gib_text(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  return text;
}

}  // namespace

void tally_processes(std::vector<OtherProcess>& seen, const std::vector<GpuProcess>& listed, double t_s) {
  for (const GpuProcess& process : listed) {
    auto known = std::find_if(seen.begin(), seen.end(), [&](const OtherProcess& p) { return p.pid == process.pid; });
    if (known == seen.end()) {
      OtherProcess first;
      first.pid = process.pid;
      first.first_seen_s = t_s;
      seen.push_back(first);
      known = seen.end() - 1;
    }
    if (known->name.empty()) known->name = process.name;
    if (known->kind.empty() || known->kind == process.kind) {
      known->kind = process.kind;
    } else {
      known->kind = "compute+graphics";
    }
    if (process.used_memory_bytes) {
      known->used_memory_bytes = std::max(known->used_memory_bytes.value_or(0), *process.used_memory_bytes);
    }
    known->last_seen_s = t_s;
    ++known->samples;
  }
}

json other_processes_json(const std::vector<OtherProcess>& processes) {
  json list = json::array();
  for (const OtherProcess& p : processes) {
    json entry{{"pid", p.pid}, {"name", p.name}, {"kind", p.kind}, {"first_seen_s", p.first_seen_s},
               {"last_seen_s", p.last_seen_s}, {"samples", p.samples}};
    entry["used_memory_bytes"] = p.used_memory_bytes ? json(*p.used_memory_bytes) : json(nullptr);
    list.push_back(entry);
  }
  return list;
}

std::optional<std::vector<OtherProcess>> other_processes_in(const json& gpu_telemetry, const std::string& source,
                                                            const std::string& path) {
  if (!gpu_telemetry.is_object() || !gpu_telemetry.contains("processes")) return std::nullopt;
  const json& list = gpu_telemetry.at("processes");
  if (!list.is_array()) throw InputError(source, path + "processes", "expected an array, found " + std::string(list.type_name()));
  std::vector<OtherProcess> processes;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& entry = list[i];
    const std::string at = path + "processes[" + std::to_string(i) + "]";
    const auto whole = [](const json& value) { return value.is_number_integer() && value.get<long long>() >= 0; };
    if (!entry.is_object() || !entry.contains("pid") || !whole(entry.at("pid"))) {
      throw InputError(source, at + ".pid", "expected each process as an object with a whole-number pid");
    }
    OtherProcess p;
    p.pid = entry.at("pid").get<unsigned>();
    const auto text = [&](const char* key) -> std::string {
      if (!entry.contains(key)) return "";
      if (!entry.at(key).is_string()) throw InputError(source, at + "." + key, "expected a string");
      return entry.at(key).get<std::string>();
    };
    const auto seconds = [&](const char* key) -> double {
      if (!entry.contains(key)) return 0;
      if (!entry.at(key).is_number()) throw InputError(source, at + "." + key, "expected a number of seconds");
      return entry.at(key).get<double>();
    };
    p.name = text("name");
    p.kind = text("kind");
    p.first_seen_s = seconds("first_seen_s");
    p.last_seen_s = seconds("last_seen_s");
    if (entry.contains("samples")) {
      if (!whole(entry.at("samples"))) throw InputError(source, at + ".samples", "expected a whole number");
      p.samples = entry.at("samples").get<int>();
    }
    if (entry.contains("used_memory_bytes") && !entry.at("used_memory_bytes").is_null()) {
      if (!whole(entry.at("used_memory_bytes"))) {
        throw InputError(source, at + ".used_memory_bytes", "expected a whole number of bytes, or null");
      }
      p.used_memory_bytes = entry.at("used_memory_bytes").get<std::uint64_t>();
    }
    processes.push_back(p);
  }
  return processes;
}

std::string describe(const OtherProcess& process) {
  std::string text = "pid " + std::to_string(process.pid);
  if (!process.name.empty()) text += ", " + process.name;
  if (process.used_memory_bytes) text += ", " + gib_text(*process.used_memory_bytes);
  return text;
}

}  // namespace gpubench
