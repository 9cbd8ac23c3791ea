#include "harness/report/prometheus_report.hpp"

#include <map>
#include <utility>
#include <vector>

#include "benchmarks/common/metric_id.hpp"
#include "harness/report/escaped_text.hpp"
#include "harness/report/figure_text.hpp"
#include "harness/report/id_segments.hpp"
#include "harness/report/prometheus_units.hpp"
#include "harness/report/utc_time.hpp"
#include "harness/results/string_field.hpp"

namespace gpubench {
namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

struct Sample {
  Labels labels;
  std::string value;
};

// One metric family: its HELP and TYPE lines, then its samples. Every gpubench metric is a gauge.
struct Family {
  std::string name;
  std::string help;
  std::vector<Sample> samples;
};

// {host="vm",gpu="0"}, each value quoted as the text format quotes it. A label with no value is left out: Prometheus
// reads an empty label as an absent one.
std::string label_text(const Labels& labels) {
  std::string text;
  for (const auto& [name, value] : labels) {
    if (value.empty()) continue;
    text += (text.empty() ? "{" : ",") + name + "=\"" + escaped_text(value, {{'\\', "\\\\"}, {'"', "\\\""}, {'\n', "\\n"}}) + "\"";
  }
  return text.empty() ? text : text + "}";
}

void write_family(const Family& family, std::ostream& out) {
  if (family.samples.empty()) return;
  out << "# HELP " << family.name << " " << family.help << "\n";
  out << "# TYPE " << family.name << " gauge\n";
  for (const Sample& s : family.samples) out << family.name << label_text(s.labels) << " " << s.value << "\n";
}

// The UUID of each GPU the fingerprint describes, by CUDA index.
std::map<int, std::string> gpu_uuids(const nlohmann::json& environment) {
  std::map<int, std::string> uuids;
  if (!environment.is_object() || !environment.contains("gpus") || !environment["gpus"].is_array()) return uuids;
  for (const nlohmann::json& gpu : environment["gpus"]) {
    if (gpu.is_object() && gpu.contains("index") && gpu["index"].is_number_integer()) {
      uuids[gpu["index"].get<int>()] = string_field(gpu, "uuid");
    }
  }
  return uuids;
}

// What a metric id says about where it was measured: host, GPU (a pair's GPU that data leaves, and its peer), family,
// and the benchmark: the id without its family and its GPU or pair segment (memory/triad/1GiB/gpu0/bandwidth:
// triad/1GiB/bandwidth on GPU 0), so that one benchmark's series on every GPU share it.
class MetricLabeller {
 public:
  MetricLabeller(std::string host, std::map<int, std::string> uuids) : host_(std::move(host)), uuids_(std::move(uuids)) {}

  Labels operator()(const std::string& text) const {
    const MetricId id(text);
    // A pair names the GPUs; a segment naming one GPU besides it (no benchmark has one) stays in the benchmark.
    const std::optional<std::pair<int, int>> pair = id.gpu_pair();
    const std::optional<int> gpu = pair ? std::nullopt : id.gpu();
    Labels labels = {{"host", host_}};
    if (pair) {
      add_gpu("gpu", pair->first, labels);
      add_gpu("peer_gpu", pair->second, labels);
    } else if (gpu) {
      add_gpu("gpu", *gpu, labels);
    }
    labels.emplace_back("family", id.family());
    labels.emplace_back("benchmark", benchmark_of(text, gpu.has_value(), pair.has_value()));
    return labels;
  }

 private:
  void add_gpu(const std::string& name, int index, Labels& labels) const {
    labels.emplace_back(name, std::to_string(index));
    const auto uuid = uuids_.find(index);
    labels.emplace_back(name + "_uuid", uuid == uuids_.end() ? "" : uuid->second);
  }

  // The segments after the family but the GPU's (the first that names one GPU, as MetricId::gpu reads it) and the
  // pair's (the last but one).
  static std::string benchmark_of(const std::string& id, bool has_gpu, bool has_pair) {
    const std::vector<std::string> segments = id_segments(id);
    std::vector<std::string> kept;
    bool gpu_dropped = false;
    for (std::size_t i = 1; i < segments.size(); ++i) {
      if (has_gpu && !gpu_dropped && parse_gpu_segment(segments[i])) {
        gpu_dropped = true;
        continue;
      }
      if (has_pair && i + 2 == segments.size()) continue;
      kept.push_back(segments[i]);
    }
    return joined_id(kept);
  }

  std::string host_;
  std::map<int, std::string> uuids_;
};

// The families of one kind of figure (the run's, or the baseline's expectation), one per unit; a unit with no
// family of its own goes to `gpubench_<prefix>metric_value`, its unit in a label, as measured.
class FiguresByUnit {
 public:
  FiguresByUnit(std::string prefix, std::string what) : prefix_(std::move(prefix)), what_(std::move(what)) {}

  void add(Labels labels, double value, const std::string& unit) {
    const std::optional<PrometheusUnit> known = prometheus_unit(unit);
    const std::string name = "gpubench_" + prefix_ + (known ? known->family : "metric_value");
    Family& family = families_[name];
    if (family.name.empty()) {
      family.name = name;
      family.help = what_ + " " + (known ? known->help : "In a unit with no family of its own, as gpubench wrote it; the unit label names it.");
    }
    if (!known) labels.emplace_back("unit", unit);
    family.samples.push_back({std::move(labels), six_digits(known ? value * known->to_base : value)});
  }

  void write(std::ostream& out) const {
    for (const auto& [name, family] : families_) write_family(family, out);
  }

 private:
  std::string prefix_;
  std::string what_;
  std::map<std::string, Family> families_;  // by name
};

}  // namespace

void write_check_prometheus(const CheckReport& report, const ResultsDocument& results, std::ostream& out) {
  const Labels host = {{"host", report.host}};
  const nlohmann::json versions = results.environment.is_object() && results.environment.contains("versions")
                                      ? results.environment["versions"]
                                      : nlohmann::json::object();
  Labels build = host;
  build.insert(build.end(), {{"version", results.run.gpubench_version},
                             {"git", results.run.git_revision},
                             {"cuda", string_field(versions, "cuda_runtime")},
                             {"driver", string_field(versions, "driver")}});
  write_family({"gpubench_build_info", "The gpubench build that measured the run, the CUDA runtime and the NVIDIA driver it ran on; always 1.",
                {{build, "1"}}}, out);
  if (const auto started = parse_utc_time(results.run.started_at)) {
    write_family({"gpubench_run_timestamp_seconds", "When the run began, in seconds since the Unix epoch.",
                  {{host, std::to_string(*started)}}}, out);
  }
  write_family({"gpubench_check_passed", "1 when the run has no regression and no failure against its baseline.",
                {{host, report.passed() ? "1" : "0"}}}, out);
  write_family({"gpubench_check_unjudged_deciding_figures",
                "How many figures that decide acceptance no baseline could judge (they pass whatever they measured).",
                {{host, std::to_string(report.unjudged_deciding.size())}}}, out);

  const MetricLabeller labels_of(report.host, gpu_uuids(results.environment));
  FiguresByUnit measured("", "The run's figure, the median of its repetitions.");
  FiguresByUnit expected("baseline_", "The baseline's expected figure.");
  Family verdicts{"gpubench_metric_verdict",
                  "1 for the verdict each metric got (pass, regression, improvement, noisy, missing, informational, failed, new).",
                  {}};
  Family tolerances{"gpubench_metric_tolerance_ratio",
                    "The relative change past which a gating metric fails (0.18 = 18 %): its tolerance, or its noise "
                    "band where wider; set_by says which.",
                    {}};
  for (const MetricVerdict& v : report.verdicts) {
    const Labels labels = labels_of(v.id);
    if (v.value) measured.add(labels, *v.value, v.unit);
    if (v.expected) expected.add(labels, *v.expected, v.unit);
    Labels judged = labels;
    judged.emplace_back("verdict", to_string(v.kind));
    if (!v.judged_by.empty()) judged.emplace_back("baseline", v.judged_by);
    verdicts.samples.push_back({std::move(judged), "1"});
    if (v.gated_at) {
      Labels gated = labels;
      gated.emplace_back("set_by", v.gated_at->set_by_noise ? "noise" : "tolerance");
      tolerances.samples.push_back({std::move(gated), six_digits(v.gated_at->fraction)});
    }
  }
  measured.write(out);
  expected.write(out);
  write_family(verdicts, out);
  write_family(tolerances, out);
}

}  // namespace gpubench
