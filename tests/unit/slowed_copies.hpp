#pragma once
// Real runs with their host copies slowed by hand, and checked as `gpubench check --baseline baselines` checks them:
// the halved-link and link-cause tests.
#include <functional>
#include <regex>
#include <set>
#include <string>

#include "harness/baseline/machine_kind.hpp"
#include "harness/results/results_document.hpp"
#include "harness/results/statistics.hpp"
#include "harness/verdict/confirmation.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

// Against the shipped baseline of the run's node kind (baselines/), with any confirmations the run holds.
inline CheckReport check_against_shipped(const ResultsDocument& run) {
  const BaselineChoice choice = choose_baseline(machine_kind_of(run, "run"), GPUBENCH_BASELINES);
  CheckReport report = check_against_baseline(run, "run.json", choice.baseline, choice.path, choice.same_model);
  apply_confirmations(report, run);
  return report;
}

// `m` made `factor` times as fast (a time divided by it), its samples and statistics with it.
inline Metric slowed(Metric m, double factor) {
  const double scale = m.better == Better::Higher ? factor : 1 / factor;
  m.value *= scale;
  for (double& sample : m.samples) sample *= scale;
  m.statistics = summarize(m.samples);
  return m;
}

// Every figure `touch` picks made `factor` times as fast; returns their ids.
inline std::set<std::string> slow_down(ResultsDocument& run, const std::function<bool(const std::string&)>& touch,
                                       double factor) {
  std::set<std::string> touched;
  for (Metric& m : run.metrics) {
    if (!touch(m.id)) continue;
    m = slowed(m, factor);
    touched.insert(m.id);
  }
  return touched;
}

inline std::set<std::string> slow_down(ResultsDocument& run, const std::regex& which, double factor) {
  return slow_down(run, [&](const std::string& id) { return std::regex_search(id, which); }, factor);
}

// Every GPU's PCIe link recorded at `width` lanes.
inline void narrow_links_to(ResultsDocument& run, int width) {
  for (nlohmann::json& gpu : run.environment["gpus"]) gpu["pcie"]["current_width"] = width;
}

}  // namespace gpubench
