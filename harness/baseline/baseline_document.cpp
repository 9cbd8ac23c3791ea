#include "harness/baseline/baseline_document.hpp"

#include <cmath>

#include "harness/baseline/gating.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"
#include "harness/results/wrong_type_error.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

double positive_number(const json& object, const char* key, const std::string& source, const std::string& path,
                       bool allow_zero) {
  if (!object.contains(key)) throw InputError(source, path + key, "missing");
  const json& value = object.at(key);
  if (!value.is_number()) throw InputError(source, path + key, "expected a number, found " + std::string(value.type_name()));
  const double x = value.get<double>();
  if (!std::isfinite(x)) throw InputError(source, path + key, "not a finite number");
  if (x < 0 || (!allow_zero && x == 0)) throw InputError(source, path + key, "must be " + std::string(allow_zero ? ">= 0" : "> 0") + ", is " + std::to_string(x));
  return x;
}

// A count (GPUs, runs): a whole number from 1 to a million.
int positive_count(const json& object, const char* key, const std::string& source, const std::string& path) {
  const double x = positive_number(object, key, source, path, false);
  if (!object.at(key).is_number_integer() || x > 1e6) {
    throw InputError(source, path + key, "must be a whole number from 1 to 1000000, is " + object.at(key).dump());
  }
  return static_cast<int>(x);
}

std::string optional_string(const json& object, const char* key, const std::string& source, const std::string& path) {
  if (!object.contains(key)) return "";
  const json& value = object.at(key);
  if (!value.is_string()) throw InputError(source, path + key, "expected a string, found " + std::string(value.type_name()));
  return value.get<std::string>();
}

std::vector<std::string> optional_strings(const json& object, const char* key, const std::string& source,
                                          const std::string& path) {
  if (!object.contains(key)) return {};
  const json& value = object.at(key);
  if (!value.is_array()) {
    throw InputError(source, path + key, "expected an array of strings, found " + std::string(value.type_name()));
  }
  std::vector<std::string> strings;
  for (const json& item : value) {
    if (!item.is_string()) throw InputError(source, path + key, "expected an array of strings, found " + item.dump());
    strings.push_back(item.get<std::string>());
  }
  return strings;
}

std::string required_string(const json& object, const char* key, const std::string& source, const std::string& path) {
  if (!object.contains(key) || !object.at(key).is_string()) throw InputError(source, path + key, "missing or not a string");
  return object.at(key).get<std::string>();
}

// What `baseline create` wrote as the rule's decision before gating was decided on reading (gating.hpp): its reasons
// began so. Such a decision is taken again by today's rule; any other "gates" is an operator's.
constexpr const char* kRuleReasonStart = "run-to-run spread ";

bool decided_by_the_rule_of_its_day(const json& object) {
  return object.contains("gates") && object.at("gates") == false && object.contains("gate_reason") &&
         object.at("gate_reason").is_string() &&
         object.at("gate_reason").get<std::string>().rfind(kRuleReasonStart, 0) == 0;
}

// "gates" as an operator set it, or decided by the rule (gating.hpp) when the file has none or only the rule's own.
void read_gating(const json& object, BaselineMetric& metric, const std::string& source, const std::string& path) {
  if (!object.contains("gates") || decided_by_the_rule_of_its_day(object)) {
    metric.gate_reason = why_not_gating(metric);
    metric.gates = metric.gate_reason.empty();
    return;
  }
  const json& gates = object.at("gates");
  if (!gates.is_boolean()) {
    throw InputError(source, path + "gates", "expected true or false, found " + gates.dump());
  }
  metric.gates = gates.get<bool>();
  metric.gating_set_by_hand = true;
  if (metric.gates) return;
  if (object.contains("gate_reason") && !object.at("gate_reason").is_string()) {
    throw InputError(source, path + "gate_reason", "expected a string, found " + object.at("gate_reason").dump());
  }
  metric.gate_reason = object.value("gate_reason", "");
  if (metric.gate_reason.empty()) metric.gate_reason = "set not to gate in the baseline file";
}

// The verdict divides by `expected` and compares against the noise band: both must stay finite numbers.
void check_derived_figures(const BaselineMetric& metric, const std::string& source, const std::string& path) {
  if (metric.expected != 0 && !std::isfinite(1 / metric.expected)) {
    throw InputError(source, path + "expected", "is " + json(metric.expected).dump() + ", too small to divide by",
                     "a relative change against it is not a finite number");
  }
  const double noise = baseline_noise(metric);
  if (!std::isfinite(noise) || (metric.expected > 0 && !std::isfinite(noise / metric.expected))) {
    throw InputError(source, path + "spread", "is " + json(metric.spread).dump() + ": the noise band it gives is not a finite number");
  }
}

}  // namespace

json to_json(const Baseline& b) {
  json metrics = json::object();
  for (const auto& [id, m] : b.metrics) {
    metrics[id] = {{"expected", m.expected}, {"spread", m.spread},     {"runs", m.runs},
                   {"better", to_string(m.better)}, {"unit", m.unit}, {"tolerance", m.tolerance},
                   {"run_values", m.run_values}};
    if (m.gating_set_by_hand) {
      metrics[id]["gates"] = m.gates;
      if (!m.gates) metrics[id]["gate_reason"] = m.gate_reason;
    }
    if (!m.method.empty()) metrics[id]["method"] = m.method;
  }
  json runs = json::array();
  for (const BaselineRun& r : b.runs) {
    runs.push_back({{"id", r.id}, {"host", r.host}, {"started_at", r.started_at}, {"gpus", r.gpus}});
  }
  return json{{"schema", kBaselineSchema},
              {"created_at", b.created_at},
              {"gpubench_version", b.gpubench_version},
              {"description", b.description},
              {"applies_to", {{"gpu_model", b.kind.gpu_model}, {"gpu_count", b.kind.gpu_count}, {"topology", b.kind.topology}}},
              {"recorded_versions", b.recorded_versions},
              {"runs", runs},
              {"metrics", metrics}};
}

namespace {

Baseline read_baseline_document(const json& j, const std::string& source) {
  if (!j.is_object()) throw InputError(source, "", "not a JSON object", "expected a gpubench baseline");
  const std::string schema = required_string(j, "schema", source, "");
  if (schema.rfind("gpubench.results/", 0) == 0) {
    throw InputError(source, "schema", "is '" + schema + "': this is the results of a run, not a baseline",
                     "to judge against another run, give it with --against; to make a baseline of several runs, "
                     "`gpubench baseline create RUN1.json ... -o BASELINE.json`");
  }
  if (schema != kBaselineSchema) {
    throw InputError(source, "schema", "is '" + schema + "', this gpubench reads '" + kBaselineSchema + "'",
                     "re-create it with `gpubench baseline create`");
  }
  Baseline b;
  b.created_at = optional_string(j, "created_at", source, "");
  b.gpubench_version = optional_string(j, "gpubench_version", source, "");
  b.description = optional_string(j, "description", source, "");
  if (!j.contains("applies_to") || !j.at("applies_to").is_object()) throw InputError(source, "applies_to", "missing");
  const json& kind = j.at("applies_to");
  b.kind.gpu_model = required_string(kind, "gpu_model", source, "applies_to.");
  b.kind.gpu_count = positive_count(kind, "gpu_count", source, "applies_to.");
  b.kind.topology = required_string(kind, "topology", source, "applies_to.");
  if (j.contains("recorded_versions")) {
    if (!j.at("recorded_versions").is_object()) throw InputError(source, "recorded_versions", "expected an object");
    b.recorded_versions = j.at("recorded_versions");
  }
  if (j.contains("runs")) {
    const json& runs = j.at("runs");
    if (!runs.is_array()) throw InputError(source, "runs", "expected an array");
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const std::string path = "runs[" + std::to_string(i) + "].";
      if (!runs[i].is_object()) throw InputError(source, path.substr(0, path.size() - 1), "expected an object");
      b.runs.push_back({optional_string(runs[i], "id", source, path), optional_string(runs[i], "host", source, path),
                        optional_string(runs[i], "started_at", source, path),
                        optional_strings(runs[i], "gpus", source, path)});
    }
  }
  if (!j.contains("metrics") || !j.at("metrics").is_object()) throw InputError(source, "metrics", "missing or not an object");
  if (j.at("metrics").empty()) throw InputError(source, "metrics", "empty: a baseline must expect something", "re-create it with `gpubench baseline create`");
  for (const auto& [id, m] : j.at("metrics").items()) {
    const std::string path = "metrics." + id + ".";
    if (!m.is_object()) throw InputError(source, "metrics." + id, "expected an object");
    BaselineMetric metric;
    metric.expected = positive_number(m, "expected", source, path, true);
    metric.spread = positive_number(m, "spread", source, path, true);
    metric.runs = positive_count(m, "runs", source, path);
    const auto better = parse_better(required_string(m, "better", source, path));
    if (!better) throw InputError(source, path + "better", "must be \"higher\" or \"lower\"");
    metric.better = *better;
    metric.unit = required_string(m, "unit", source, path);
    metric.tolerance = positive_number(m, "tolerance", source, path, false);
    if (metric.tolerance >= 1) {
      throw InputError(source, path + "tolerance", "is " + std::to_string(metric.tolerance) + "; tolerances are fractions (0.05 = 5 %)");
    }
    if (m.contains("run_values") && m.at("run_values").is_array()) {
      for (const json& v : m.at("run_values")) {
        if (v.is_number()) metric.run_values.push_back(v.get<double>());
      }
    }
    if (m.contains("method")) {
      if (!m.at("method").is_object()) throw InputError(source, path + "method", "expected an object of strings");
      for (const auto& [key, value] : m.at("method").items()) {
        if (!value.is_string()) throw InputError(source, path + "method." + key, "expected a string");
        metric.method[key] = value.get<std::string>();
      }
    }
    check_derived_figures(metric, source, path);
    read_gating(m, metric, source, path);
    b.metrics[id] = metric;
  }
  return b;
}

}  // namespace

Baseline baseline_from_json(const json& j, const std::string& source) {
  return with_wrong_types_as_input_errors(source, "the file was edited or damaged; re-create it with `gpubench baseline create`",
                                          [&] { return read_baseline_document(j, source); });
}

Baseline read_baseline_file(const std::string& path) { return baseline_from_json(read_json_file(path), path); }

}  // namespace gpubench
