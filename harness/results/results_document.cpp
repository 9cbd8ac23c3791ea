#include "harness/results/results_document.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

#include "harness/results/clock_events.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/other_processes.hpp"
#include "harness/results/wrong_type_error.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

constexpr long long kLargestGpuIndex = 65535;

json statistics_json(const SampleStatistics& s) {
  return json{{"count", s.count}, {"median", s.median}, {"mean", s.mean}, {"min", s.min}, {"max", s.max},
              {"stddev", s.stddev}, {"mad", s.mad},       {"cv", s.cv}};
}

json metric_json(const Metric& m) {
  json out{{"id", m.id}, {"benchmark", m.benchmark}, {"family", m.family}, {"value", m.value}, {"unit", m.unit},
           {"better", to_string(m.better)}, {"samples", m.samples}, {"statistics", statistics_json(m.statistics)}};
  out["device"] = m.device ? json(*m.device) : json(nullptr);
  if (m.peak) out["peak"] = *m.peak;
  if (m.efficiency) out["efficiency"] = *m.efficiency;
  json telemetry{{"clock_event_reasons", clock_event_names(m.clock_event_reasons)}, {"throttled", m.throttled}};
  if (m.sm_clock_mhz) telemetry["sm_clock_mhz"] = *m.sm_clock_mhz;
  out["telemetry"] = telemetry;
  out["params"] = m.params;
  return out;
}

// Field access that names the file and the path of the field when it is missing or of the wrong type.
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  const json& member(const json& object, const std::string& key, const std::string& path) const {
    expect_object(object, path);
    const auto it = object.find(key);
    if (it == object.end()) throw InputError(source_, path + key, "missing", "the file may be truncated or not a gpubench results document");
    return *it;
  }
  std::string string(const json& object, const std::string& key, const std::string& path) const {
    const json& value = member(object, key, path);
    if (!value.is_string()) throw InputError(source_, path + key, "expected a string");
    return value.get<std::string>();
  }
  double finite_number(const json& value, const std::string& path) const {
    if (!value.is_number()) throw InputError(source_, path, "expected a number, found " + std::string(value.type_name()));
    const double x = value.get<double>();
    if (!std::isfinite(x)) throw InputError(source_, path, "not a finite number");
    return x;
  }
  double number(const json& object, const std::string& key, const std::string& path) const {
    return finite_number(member(object, key, path), path + key);
  }
  // `path` names the object with a trailing '.', as the other accessors take it: "metrics[3]."
  void expect_object(const json& value, const std::string& path) const {
    if (!value.is_object()) {
      throw InputError(source_, path.empty() ? "" : path.substr(0, path.size() - 1),
                       "expected an object, found " + std::string(value.type_name()));
    }
  }
  // Optional members: `fallback` when absent, an InputError naming the field when of the wrong type.
  std::string optional_string(const json& object, const std::string& key, const std::string& path) const {
    if (!object.contains(key)) return "";
    const json& value = object.at(key);
    if (!value.is_string()) throw InputError(source_, path + key, "expected a string, found " + std::string(value.type_name()));
    return value.get<std::string>();
  }
  bool optional_bool(const json& object, const std::string& key, const std::string& path) const {
    if (!object.contains(key)) return false;
    const json& value = object.at(key);
    if (!value.is_boolean()) throw InputError(source_, path + key, "expected true or false, found " + value.dump());
    return value.get<bool>();
  }
  double optional_number(const json& object, const std::string& key, const std::string& path) const {
    return object.contains(key) ? number(object, key, path) : 0.0;
  }
  int integer(const json& value, const std::string& path, long long lowest, long long highest) const {
    // An unsigned value past LLONG_MAX reads as negative, so it fails the range too.
    if (!value.is_number_integer() || value.get<long long>() < lowest || value.get<long long>() > highest) {
      throw InputError(source_, path, "expected a whole number from " + std::to_string(lowest) + " to " +
                                          std::to_string(highest) + ", found " + value.dump());
    }
    return static_cast<int>(value.get<long long>());
  }
  const json& array(const json& object, const std::string& key, const std::string& path) const {
    const json& value = member(object, key, path);
    if (!value.is_array()) throw InputError(source_, path + key, "expected an array");
    return value;
  }
  const std::string& source() const { return source_; }

 private:
  std::string source_;
};

Metric metric_from_json(const Reader& r, const json& j, const std::string& path) {
  Metric m;
  m.id = r.string(j, "id", path);
  m.benchmark = r.string(j, "benchmark", path);
  m.family = r.string(j, "family", path);
  const json& device = r.member(j, "device", path);
  if (!device.is_null()) m.device = r.integer(device, path + "device", 0, kLargestGpuIndex);
  m.value = r.number(j, "value", path);
  m.unit = r.string(j, "unit", path);
  const auto better = parse_better(r.string(j, "better", path));
  if (!better) throw InputError(r.source(), path + "better", "must be \"higher\" or \"lower\"");
  m.better = *better;
  const json& samples = r.array(j, "samples", path);
  if (samples.empty()) throw InputError(r.source(), path + "samples", "no samples");
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const std::string sample_path = path + "samples[" + std::to_string(i) + "]";
    m.samples.push_back(r.finite_number(samples[i], sample_path));
    if (m.samples.back() < 0) throw InputError(r.source(), sample_path, "negative; every gpubench figure is >= 0");
  }
  if (m.value < 0) throw InputError(r.source(), path + "value", "negative (" + std::to_string(m.value) + "); every gpubench figure is >= 0");
  m.statistics = summarize(m.samples);
  if (!std::isfinite(m.statistics.mean) || !std::isfinite(m.statistics.stddev)) {
    throw InputError(r.source(), path + "samples", "too large to summarise (the mean or deviation overflows)");
  }
  if (j.contains("peak")) m.peak = r.number(j, "peak", path);
  // Nothing measures 50 % past the theoretical peak of its device: such a value is a corrupt file or a bug.
  if (m.peak && *m.peak > 0 && m.better == Better::Higher && m.value > 1.5 * *m.peak) {
    throw InputError(r.source(), path + "value", std::to_string(m.value) + " " + m.unit + " is more than 1.5 times the peak (" +
                                                     std::to_string(*m.peak) + "): not a plausible measurement");
  }
  if (j.contains("efficiency")) m.efficiency = r.number(j, "efficiency", path);
  if (j.contains("telemetry")) {
    const json& t = j.at("telemetry");
    r.expect_object(t, path + "telemetry.");
    if (t.contains("sm_clock_mhz")) m.sm_clock_mhz = r.number(t, "sm_clock_mhz", path + "telemetry.");
    m.throttled = r.optional_bool(t, "throttled", path + "telemetry.");
    if (t.contains("clock_event_reasons")) {
      const json& names = t.at("clock_event_reasons");
      const std::string where = path + "telemetry.clock_event_reasons";
      if (!names.is_array() || !std::all_of(names.begin(), names.end(), [](const json& n) { return n.is_string(); })) {
        throw InputError(r.source(), where, "expected an array of reason names");
      }
      try {
        m.clock_event_reasons = clock_event_bits(names.get<std::vector<std::string>>());
      } catch (const std::invalid_argument& error) {
        throw InputError(r.source(), where, error.what());
      }
    }
  }
  if (j.contains("params") && j.at("params").is_object()) {
    for (const auto& [key, value] : j.at("params").items()) {
      m.params[key] = value.is_string() ? value.get<std::string>() : value.dump();
    }
  }
  return m;
}

// The parts of `environment` that the verdict tools read (GPU models and clocks, links, variables) have the
// shape they expect, so that a damaged file is named with its field rather than failing deep inside a tool.
void check_environment(const std::string& source, const json& environment) {
  if (!environment.is_object()) throw InputError(source, "environment", "expected an object");
  const auto objects = [&](const json& list, const std::string& path) {
    if (!list.is_array()) throw InputError(source, path, "expected an array");
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (!list[i].is_object()) throw InputError(source, path + "[" + std::to_string(i) + "]", "expected an object");
    }
  };
  if (environment.contains("gpus")) {
    objects(environment.at("gpus"), "environment.gpus");
    for (std::size_t i = 0; i < environment.at("gpus").size(); ++i) {
      const json& gpu = environment.at("gpus")[i];
      for (const char* key : {"clocks", "pcie"}) {
        if (gpu.contains(key) && !gpu.at(key).is_object()) {
          throw InputError(source, "environment.gpus[" + std::to_string(i) + "]." + key, "expected an object");
        }
      }
      if (gpu.contains("name") && !gpu.at("name").is_string()) {
        throw InputError(source, "environment.gpus[" + std::to_string(i) + "].name", "expected a string");
      }
    }
  }
  if (environment.contains("topology")) {
    const json& topology = environment.at("topology");
    if (!topology.is_object()) throw InputError(source, "environment.topology", "expected an object");
    if (topology.contains("links")) {
      objects(topology.at("links"), "environment.topology.links");
      for (std::size_t i = 0; i < topology.at("links").size(); ++i) {
        const json& link = topology.at("links")[i];
        if (link.contains("kind") && !link.at("kind").is_string()) {
          throw InputError(source, "environment.topology.links[" + std::to_string(i) + "].kind", "expected a string");
        }
      }
    }
  }
  if (environment.contains("variables") && !environment.at("variables").is_object()) {
    throw InputError(source, "environment.variables", "expected an object");
  }
}

}  // namespace

json to_json(const ResultsDocument& d) {
  json run{{"id", d.run.id},
           {"started_at", d.run.started_at},
           {"finished_at", d.run.finished_at},
           {"host", d.run.host},
           {"gpubench_version", d.run.gpubench_version},
           {"git_revision", d.run.git_revision},
           {"command_line", d.run.command_line},
           {"suite", d.run.suite},
           {"devices", d.run.devices},
           {"interrupted", d.run.interrupted}};
  json families = json::array();
  for (const FamilyRun& f : d.families) {
    families.push_back({{"family", f.family}, {"status", f.status}, {"seconds", f.seconds}, {"exit_code", f.exit_code},
                        {"telemetry", f.telemetry}});
  }
  json metrics = json::array();
  for (const Metric& m : d.metrics) metrics.push_back(metric_json(m));
  json failures = json::array();
  for (const Failure& f : d.failures) {
    failures.push_back({{"benchmark", f.benchmark}, {"family", f.family}, {"kind", to_string(f.kind)}, {"reason", f.reason},
                        {"advice", f.advice}});
  }
  json skipped = json::array();
  for (const Skip& s : d.skipped) skipped.push_back({{"benchmark", s.benchmark}, {"family", s.family}, {"reason", s.reason}});
  json out{{"schema", kResultsSchema}, {"run", run},         {"environment", d.environment}, {"families", families},
           {"metrics", metrics},      {"failures", failures}, {"skipped", skipped}};
  if (!d.confirmations.empty()) {
    json confirmations = json::array();
    for (const Confirmation& c : d.confirmations) {
      json measurements = json::array();
      for (const Metric& m : c.measurements) measurements.push_back(metric_json(m));
      confirmations.push_back({{"metric", c.metric}, {"measurements", measurements}});
    }
    out["confirmations"] = confirmations;
  }
  if (!d.stress.is_null()) out["stress"] = d.stress;
  return out;
}

namespace {

ResultsDocument read_results_document(const json& j, const std::string& source) {
  const Reader r(source);
  if (!j.is_object()) throw InputError(source, "", "not a JSON object", "expected a gpubench results document");
  const std::string schema = r.string(j, "schema", "");
  if (schema.rfind("gpubench.watch/", 0) == 0 || schema.rfind("gpubench.baseline/", 0) == 0) {
    const bool watch = schema.rfind("gpubench.watch/", 0) == 0;
    throw InputError(source, "schema",
                     "is '" + schema + "': this is " + (watch ? "a watch document" : "a baseline") +
                         "; `check` (as compare, history and baseline create) takes a results document",
                     watch ? "give it the results of `gpubench run -o FILE`; `show` and `report` read a watch document"
                           : "give it the results of `gpubench run -o FILE`, and this baseline with --baseline");
  }
  if (schema != kResultsSchema) {
    throw InputError(source, "schema", "is '" + schema + "', this gpubench reads '" + kResultsSchema + "'",
                     "use the gpubench release that wrote it, or re-run the benchmarks");
  }
  ResultsDocument d;
  const json& run = r.member(j, "run", "");
  d.run.id = r.string(run, "id", "run.");
  d.run.started_at = r.string(run, "started_at", "run.");
  d.run.finished_at = r.optional_string(run, "finished_at", "run.");
  d.run.host = r.string(run, "host", "run.");
  d.run.gpubench_version = r.string(run, "gpubench_version", "run.");
  d.run.git_revision = r.optional_string(run, "git_revision", "run.");
  if (run.contains("command_line") && run.at("command_line").is_array()) {
    for (const json& arg : run.at("command_line")) d.run.command_line.push_back(arg.is_string() ? arg.get<std::string>() : arg.dump());
  }
  d.run.suite = r.optional_string(run, "suite", "run.");
  if (run.contains("devices") && run.at("devices").is_array()) {
    const json& devices = run.at("devices");
    for (std::size_t i = 0; i < devices.size(); ++i) {
      d.run.devices.push_back(r.integer(devices[i], "run.devices[" + std::to_string(i) + "]", 0, kLargestGpuIndex));
    }
  }
  d.run.interrupted = r.optional_bool(run, "interrupted", "run.");
  d.environment = r.member(j, "environment", "");
  check_environment(source, d.environment);
  if (j.contains("families") && j.at("families").is_array()) {
    const json& families = j.at("families");
    for (std::size_t i = 0; i < families.size(); ++i) {
      const json& f = families[i];
      const std::string path = "families[" + std::to_string(i) + "].";
      r.expect_object(f, path);
      d.families.push_back({r.optional_string(f, "family", path), r.optional_string(f, "status", path),
                            r.optional_number(f, "seconds", path),
                            f.contains("exit_code") ? r.integer(f.at("exit_code"), path + "exit_code", INT_MIN, INT_MAX) : 0,
                            f.value("telemetry", json::object())});
      if (d.families.back().telemetry.is_object()) {
        for (const auto& [gpu, telemetry] : d.families.back().telemetry.items()) {
          other_processes_in(telemetry, source, path + "telemetry." + gpu + ".");  // refused here when malformed
        }
      }
    }
  }
  const json& metrics = r.array(j, "metrics", "");
  std::map<std::string, std::size_t> first_with_id;
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    d.metrics.push_back(metric_from_json(r, metrics[i], "metrics[" + std::to_string(i) + "]."));
    // A second value for one id would hide the first from every verdict: which one is the measurement?
    const auto [first, unique] = first_with_id.emplace(d.metrics.back().id, i);
    if (!unique) {
      throw InputError(source, "metrics[" + std::to_string(i) + "].id",
                       "'" + d.metrics.back().id + "' is also metrics[" + std::to_string(first->second) + "].id",
                       "each metric appears once; the file was edited or merged by hand");
    }
  }
  const json& failures = r.array(j, "failures", "");
  for (std::size_t i = 0; i < failures.size(); ++i) {
    const std::string path = "failures[" + std::to_string(i) + "].";
    // A document older than the kinds has none: its failures read as of unknown kind, with the advice they carry.
    FailureKind kind = FailureKind::Unknown;
    if (failures[i].contains("kind")) {
      const std::string name = r.string(failures[i], "kind", path);
      const auto parsed = parse_failure_kind(name);
      if (!parsed) throw InputError(r.source(), path + "kind", "unknown failure kind '" + name + "'");
      kind = *parsed;
    }
    d.failures.push_back({r.string(failures[i], "benchmark", path), r.optional_string(failures[i], "family", path), kind,
                          r.string(failures[i], "reason", path), r.optional_string(failures[i], "advice", path)});
  }
  if (j.contains("confirmations")) {  // absent from documents that no `check --confirm` touched
    const json& confirmations = r.array(j, "confirmations", "");
    for (std::size_t i = 0; i < confirmations.size(); ++i) {
      const std::string path = "confirmations[" + std::to_string(i) + "].";
      Confirmation c;
      c.metric = r.string(confirmations[i], "metric", path);
      const json& measurements = r.array(confirmations[i], "measurements", path);
      for (std::size_t k = 0; k < measurements.size(); ++k) {
        c.measurements.push_back(metric_from_json(r, measurements[k], path + "measurements[" + std::to_string(k) + "]."));
      }
      d.confirmations.push_back(std::move(c));
    }
  }
  if (j.contains("stress")) d.stress = j.at("stress");
  if (j.contains("skipped") && j.at("skipped").is_array()) {
    const json& skipped = j.at("skipped");
    for (std::size_t i = 0; i < skipped.size(); ++i) {
      const std::string path = "skipped[" + std::to_string(i) + "].";
      r.expect_object(skipped[i], path);
      d.skipped.push_back({r.optional_string(skipped[i], "benchmark", path), r.optional_string(skipped[i], "family", path),
                           r.optional_string(skipped[i], "reason", path)});
    }
  }
  if (d.metrics.empty() && d.failures.empty() && d.skipped.empty()) {
    throw InputError(source, "metrics", "empty, and nothing failed or was skipped: the run measured nothing",
                     d.run.interrupted ? "it was interrupted before any benchmark finished; run it again"
                                       : "was its --filter matching nothing? run it again");
  }
  return d;
}

}  // namespace

ResultsDocument results_from_json(const json& j, const std::string& source) {
  return with_wrong_types_as_input_errors(source, "the file was edited or damaged; re-create it, or repair the field named",
                                          [&] { return read_results_document(j, source); });
}

}  // namespace gpubench
