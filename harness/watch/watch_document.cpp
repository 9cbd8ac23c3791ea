#include "harness/watch/watch_document.hpp"

#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"
#include "harness/results/wrong_type_error.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

constexpr const char* kFix = "the file may be truncated or not written by `gpubench watch`";

json ceiling_json(const Ceiling& c) { return {{"value", c.value}, {"metric", c.metric}}; }

json gpu_ceilings_json(int index, const GpuCeilings& c) {
  json out{{"index", index}};
  const auto optional = [&](const char* key, const std::optional<Ceiling>& value) {
    if (value) out[key] = ceiling_json(*value);
  };
  optional("hbm_gbps", c.hbm_gbps);
  if (!c.gemm_tflops.empty()) {
    out["gemm_tflops"] = json::object();
    for (const auto& [precision, ceiling] : c.gemm_tflops) out["gemm_tflops"][precision] = ceiling_json(ceiling);
  }
  optional("h2d_pinned_gbps", c.h2d_pinned_gbps);
  optional("d2h_pinned_gbps", c.d2h_pinned_gbps);
  optional("h2d_pageable_gbps", c.h2d_pageable_gbps);
  optional("d2h_pageable_gbps", c.d2h_pageable_gbps);
  if (!c.p2p_out_gbps.empty()) {
    out["p2p_out_gbps"] = json::object();
    for (const auto& [peer, ceiling] : c.p2p_out_gbps) out["p2p_out_gbps"][std::to_string(peer)] = ceiling_json(ceiling);
  }
  return out;
}

json ceilings_json(const WatchCeilings& c) {
  json out{{"source", c.source}, {"kind", c.kind}, {"note", c.note}, {"gpus", json::array()}};
  for (const auto& [index, gpu] : c.gpus) out["gpus"].push_back(gpu_ceilings_json(index, gpu));
  return out;
}

json finding_json(const WatchFinding& f) {
  json out{{"rule", f.rule}, {"outcome", outcome_name(f.outcome)}, {"evidence", f.evidence}, {"source", f.source}};
  if (!f.fix.empty()) out["fix"] = f.fix;
  if (!f.cause.empty()) out["cause"] = f.cause;
  return out;
}

json diagnoses_json(const std::vector<GpuDiagnosis>& diagnoses) {
  json out = json::array();
  for (const GpuDiagnosis& d : diagnoses) {
    json gpu{{"gpu", d.gpu},
             {"summary", d.summary},
             {"steady_part",
              {{"from_s", d.steady.from_s}, {"to_s", d.steady.to_s}, {"left_out_s", d.steady.left_out_s},
               {"why", d.steady.why}}},
             {"findings", json::array()}};
    for (const WatchFinding& f : d.findings) gpu["findings"].push_back(finding_json(f));
    out.push_back(gpu);
  }
  return out;
}

json job_json(const WatchedJobEnd& job) {
  json out{{"status", job.status}};
  if (job.exit_code) out["exit_code"] = *job.exit_code;
  if (job.signal) {
    out["signal"] = *job.signal;
    out["signal_name"] = job.signal_name;
  }
  return out;
}

json gpm_json(const std::map<int, std::string>& gpm) {
  json out = json::array();
  for (const auto& [index, why] : gpm) out.push_back({{"gpu", index}, {"why", why}});
  return out;
}

// What the document and its diagnosis alone (--json FILE) both hold: how the job ended, which GPUs were diagnosed
// against which ceilings, and the diagnosis.
void add_diagnosis_fields(const WatchDocument& d, json& out) {
  if (d.job) out["job"] = job_json(*d.job);
  if (!d.stopped_by.empty()) out["stopped_by"] = d.stopped_by;
  if (!d.gpu_unavailable.empty()) out["gpu_unavailable"] = d.gpu_unavailable;
  out["gpm_unavailable"] = gpm_json(d.gpm_unavailable);
  out["diagnosed_gpus"] = d.diagnosed_gpus;
  out["diagnosed_gpus_basis"] = d.diagnosed_gpus_basis;
  out["ceilings"] = ceilings_json(d.ceilings);
  out["diagnosis"] = diagnoses_json(d.diagnosis);
}

// The fields beside the timeline; each names its path when it is of the wrong kind.
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  std::string text(const json& object, const char* key, const std::string& path = "") const {
    if (!object.contains(key)) return "";
    const json& value = object.at(key);
    if (!value.is_string()) throw InputError(source_, path + key, "expected text", kFix);
    return value.get<std::string>();
  }
  double number(const json& object, const char* key, const std::string& path = "") const {
    const json& value = object.at(key);
    if (!value.is_number()) throw InputError(source_, path + key, "expected a number", kFix);
    return value.get<double>();
  }
  int whole(const json& value, const std::string& path) const {
    if (!value.is_number_integer()) throw InputError(source_, path, "expected a whole number", kFix);
    return value.get<int>();
  }
  const json& array(const json& object, const char* key, const std::string& path = "") const {
    const json& value = object.at(key);
    if (!value.is_array()) throw InputError(source_, path + key, "expected an array", kFix);
    return value;
  }
  const json& object(const json& parent, const char* key, const std::string& path = "") const {
    const json& value = parent.at(key);
    if (!value.is_object()) throw InputError(source_, path + key, "expected an object", kFix);
    return value;
  }
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw InputError(source_, path, problem, kFix);
  }

 private:
  std::string source_;
};

Ceiling read_ceiling(const Reader& read, const json& object, const std::string& path) {
  if (!object.is_object()) read.fail(path, "expected an object with value and metric");
  return Ceiling{read.number(object, "value", path + "."), read.text(object, "metric", path + ".")};
}

GpuCeilings read_gpu_ceilings(const Reader& read, const json& object, const std::string& path) {
  GpuCeilings c;
  const auto optional = [&](const char* key, std::optional<Ceiling>& slot) {
    if (object.contains(key)) slot = read_ceiling(read, object.at(key), path + key);
  };
  optional("hbm_gbps", c.hbm_gbps);
  if (object.contains("gemm_tflops")) {
    for (const auto& [precision, value] : read.object(object, "gemm_tflops", path).items()) {
      c.gemm_tflops[precision] = read_ceiling(read, value, path + "gemm_tflops." + precision);
    }
  }
  optional("h2d_pinned_gbps", c.h2d_pinned_gbps);
  optional("d2h_pinned_gbps", c.d2h_pinned_gbps);
  optional("h2d_pageable_gbps", c.h2d_pageable_gbps);
  optional("d2h_pageable_gbps", c.d2h_pageable_gbps);
  if (object.contains("p2p_out_gbps")) {
    for (const auto& [peer, value] : read.object(object, "p2p_out_gbps", path).items()) {
      const std::string where = path + "p2p_out_gbps." + peer;
      if (peer.empty() || peer.find_first_not_of("0123456789") != std::string::npos || peer.size() > 4) {
        read.fail(where, "a peer is named by its CUDA index");
      }
      c.p2p_out_gbps[std::stoi(peer)] = read_ceiling(read, value, where);
    }
  }
  return c;
}

RuleOutcome read_outcome(const Reader& read, const std::string& name, const std::string& path) {
  for (RuleOutcome outcome : {RuleOutcome::Fired, RuleOutcome::Clear, RuleOutcome::CouldNotRun}) {
    if (name == outcome_name(outcome)) return outcome;
  }
  read.fail(path, "'" + name + "' is not fired, clear or could not run");
}

std::vector<GpuDiagnosis> read_diagnoses(const Reader& read, const json& list, const std::string& path) {
  std::vector<GpuDiagnosis> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = path + "[" + std::to_string(i) + "].";
    const json& object = list[i];
    if (!object.is_object()) read.fail(where, "expected an object");
    GpuDiagnosis d;
    d.gpu = read.whole(object.at("gpu"), where + "gpu");
    d.summary = read.text(object, "summary", where);
    if (object.contains("steady_part")) {  // absent in documents written before watch found the steady part
      const std::string at = where + "steady_part.";
      const json& steady = read.object(object, "steady_part", where);
      d.steady.from_s = read.number(steady, "from_s", at);
      d.steady.to_s = read.number(steady, "to_s", at);
      d.steady.left_out_s = read.number(steady, "left_out_s", at);
      d.steady.why = read.text(steady, "why", at);
    }
    const json& findings = read.array(object, "findings", where);
    for (std::size_t j = 0; j < findings.size(); ++j) {
      const std::string at = where + "findings[" + std::to_string(j) + "].";
      const json& f = findings[j];
      if (!f.is_object()) read.fail(at, "expected an object");
      WatchFinding finding;
      finding.rule = read.text(f, "rule", at);
      if (finding.rule.empty()) read.fail(at + "rule", "missing");
      finding.outcome = read_outcome(read, read.text(f, "outcome", at), at + "outcome");
      finding.evidence = read.text(f, "evidence", at);
      finding.fix = read.text(f, "fix", at);
      finding.source = read.text(f, "source", at);
      finding.cause = read.text(f, "cause", at);
      d.findings.push_back(std::move(finding));
    }
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace

json to_json(const WatchDocument& d) {
  json out = to_json(d.timeline);
  out["gpubench_version"] = d.gpubench_version;
  out["hostname"] = d.hostname;
  out["started_at"] = d.started_at;
  out["finished_at"] = d.finished_at;
  out["duration_s"] = d.duration_s;
  out["mode"] = d.mode;
  out["gpu_identities"] = json::array();
  for (const WatchedGpuIdentity& g : d.gpu_identities) {
    out["gpu_identities"].push_back({{"index", g.index}, {"uuid", g.uuid}, {"pci_bus_id", g.pci_bus_id}});
  }
  add_diagnosis_fields(d, out);
  return out;
}

json diagnosis_json(const WatchDocument& d) {
  json out{{"schema", "gpubench.watch-diagnosis/1"}, {"command", d.timeline.command}, {"hostname", d.hostname},
           {"started_at", d.started_at}, {"duration_s", d.duration_s}, {"mode", d.mode}};
  add_diagnosis_fields(d, out);
  return out;
}

WatchDocument watch_document_from_json(const json& document, const std::string& source) {
  WatchDocument d;
  d.timeline = watch_timeline_from_json(document, source);  // checks the schema and the timeline
  return with_wrong_types_as_input_errors(source, kFix, [&] {
    const Reader read(source);
    d.gpubench_version = read.text(document, "gpubench_version");
    d.hostname = read.text(document, "hostname");
    d.started_at = read.text(document, "started_at");
    d.finished_at = read.text(document, "finished_at");
    if (document.contains("duration_s")) d.duration_s = read.number(document, "duration_s");
    if (document.contains("mode")) {
      d.mode = read.text(document, "mode");
      if (d.mode != "command" && d.mode != "duration") read.fail("mode", "'" + d.mode + "' is not command or duration");
    }
    if (document.contains("job")) {
      const json& job = read.object(document, "job");
      WatchedJobEnd end;
      end.status = read.whole(job.at("status"), "job.status");
      if (job.contains("exit_code")) end.exit_code = read.whole(job.at("exit_code"), "job.exit_code");
      if (job.contains("signal")) end.signal = read.whole(job.at("signal"), "job.signal");
      end.signal_name = read.text(job, "signal_name", "job.");
      d.job = end;
    }
    d.stopped_by = read.text(document, "stopped_by");
    if (document.contains("gpu_identities")) {
      const json& list = read.array(document, "gpu_identities");
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string where = "gpu_identities[" + std::to_string(i) + "].";
        if (!list[i].is_object()) read.fail(where, "expected an object");
        d.gpu_identities.push_back({read.whole(list[i].at("index"), where + "index"), read.text(list[i], "uuid", where),
                                    read.text(list[i], "pci_bus_id", where)});
      }
    }
    d.gpu_unavailable = read.text(document, "gpu_unavailable");
    if (document.contains("gpm_unavailable")) {
      const json& list = read.array(document, "gpm_unavailable");
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string where = "gpm_unavailable[" + std::to_string(i) + "].";
        if (!list[i].is_object()) read.fail(where, "expected an object");
        d.gpm_unavailable[read.whole(list[i].at("gpu"), where + "gpu")] = read.text(list[i], "why", where);
      }
    }
    if (document.contains("diagnosed_gpus")) {
      const json& list = read.array(document, "diagnosed_gpus");
      for (std::size_t i = 0; i < list.size(); ++i) {
        d.diagnosed_gpus.push_back(read.whole(list[i], "diagnosed_gpus[" + std::to_string(i) + "]"));
      }
    }
    d.diagnosed_gpus_basis = read.text(document, "diagnosed_gpus_basis");
    if (document.contains("ceilings")) {
      const json& c = read.object(document, "ceilings");
      d.ceilings.source = read.text(c, "source", "ceilings.");
      d.ceilings.kind = read.text(c, "kind", "ceilings.");
      d.ceilings.note = read.text(c, "note", "ceilings.");
      if (c.contains("gpus")) {
        const json& list = read.array(c, "gpus", "ceilings.");
        for (std::size_t i = 0; i < list.size(); ++i) {
          const std::string where = "ceilings.gpus[" + std::to_string(i) + "].";
          if (!list[i].is_object()) read.fail(where, "expected an object");
          d.ceilings.gpus[read.whole(list[i].at("index"), where + "index")] = read_gpu_ceilings(read, list[i], where);
        }
      }
    }
    if (document.contains("diagnosis")) d.diagnosis = read_diagnoses(read, read.array(document, "diagnosis"), "diagnosis");
    return d;
  });
}

WatchDocument read_watch_file(const std::string& path) { return watch_document_from_json(read_json_file(path), path); }

}  // namespace gpubench
