#pragma once
// The figures the verdict tests judge: a run's metric from its samples, and a baseline's expectation of it.
#include <string>
#include <utility>
#include <vector>

#include "harness/baseline/baseline_document.hpp"
#include "harness/results/results_document.hpp"
#include "harness/results/statistics.hpp"

namespace gpubench {

// A measured figure whose value is the median of its samples, as `run` records it.
inline Metric measured_metric(const std::string& id, const std::string& unit, Better better,
                              std::vector<double> samples) {
  Metric m;
  m.id = id;
  m.unit = unit;
  m.better = better;
  m.samples = std::move(samples);
  m.statistics = summarize(m.samples);
  m.value = m.statistics.median;
  return m;
}

// A baseline's figure: the value it expects over `runs` runs, their spread, and the tolerance that gates it.
inline BaselineMetric expected_metric(double value, double spread, int runs, Better better, const std::string& unit,
                                      double tolerance) {
  BaselineMetric b;
  b.expected = value;
  b.spread = spread;
  b.runs = runs;
  b.better = better;
  b.unit = unit;
  b.tolerance = tolerance;
  return b;
}

}  // namespace gpubench
