#include "harness/verdict/contention.hpp"

#include <map>
#include <set>

#include "benchmarks/common/metric_id.hpp"
#include "harness/results/other_processes.hpp"

namespace gpubench {
namespace {

struct Sighting {
  std::string family;  // the family's name (a variant's label without ".variant")
  int gpu = -1;        // -1: not a CUDA index ("HOST/gpu0" of another node)
  OtherProcess process;
};

std::vector<Sighting> sightings_in(const ResultsDocument& results) {
  std::vector<Sighting> sightings;
  for (std::size_t f = 0; f < results.families.size(); ++f) {
    const FamilyRun& family = results.families[f];
    if (!family.telemetry.is_object()) continue;
    const std::string name = family.family.substr(0, family.family.find('.'));
    for (const auto& [key, telemetry] : family.telemetry.items()) {
      const auto processes = other_processes_in(telemetry, "results", "families[" + std::to_string(f) + "].telemetry." + key + ".");
      if (!processes) continue;
      const std::optional<int> gpu = parse_gpu_segment(key);
      for (const OtherProcess& process : *processes) sightings.push_back({name, gpu.value_or(-1), process});
    }
  }
  return sightings;
}

std::string sentence(const Sighting& s) {
  return "another process (" + describe(s.process) + ") used " + (s.gpu >= 0 ? "GPU " + std::to_string(s.gpu) : "a GPU") +
         " during " + s.family;
}

}  // namespace

std::vector<std::string> contention_in(const ResultsDocument& results) {
  std::vector<std::string> sentences;
  std::set<std::string> said;
  for (const Sighting& s : sightings_in(results)) {
    if (said.insert(sentence(s)).second) sentences.push_back(sentence(s));
  }
  return sentences;
}

std::string contention_during(const ResultsDocument& results, const Metric& metric) {
  const MetricId id(metric.id);
  std::set<int> gpus;
  if (const auto pair = id.gpu_pair()) {
    gpus = {pair->first, pair->second};
  } else if (const auto gpu = id.gpu()) {
    gpus = {*gpu};
  }
  std::string text;
  std::set<std::string> said;
  for (const Sighting& s : sightings_in(results)) {
    if (s.family != id.family() || (!gpus.empty() && gpus.count(s.gpu) == 0)) continue;
    const std::string one = sentence(s);
    if (said.insert(one).second) text += (text.empty() ? "" : "; ") + one;
  }
  return text;
}

void mark_contention(CheckReport& report, const ResultsDocument& results) {
  std::map<std::string, const Metric*> measured;
  for (const Metric& m : results.metrics) measured[m.id] = &m;
  for (MetricVerdict& v : report.verdicts) {
    const auto m = measured.find(v.id);
    if (m == measured.end()) continue;
    v.contention = contention_during(results, *m->second);
    // Beside a figure that looks worse, the cause to weigh first, in every format.
    if (!v.contention.empty() && v.worse && (v.kind == VerdictKind::Regression || v.kind == VerdictKind::Noisy)) {
      v.reason = "under contention: " + v.contention + "; " + v.reason;
    }
  }
}

std::string verdict_text(const MetricVerdict& verdict) {
  if (verdict.kind == VerdictKind::Regression && !verdict.contention.empty()) return "regression under contention";
  return to_string(verdict.kind);
}

}  // namespace gpubench
