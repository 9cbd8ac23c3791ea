#pragma once
// The Prometheus text format, for node_exporter's textfile collector: a check of one run, each figure in the family
// of its unit in base units (prometheus_units.hpp) beside the baseline's expectation, each verdict, whether the run
// passed, when it began and the build that measured it. Every figure's series is labelled with the host, the GPU
// (CUDA index and UUID, by which it joins dcgm-exporter's series), the family and the benchmark (the metric id
// without its family and GPUs). Serves `check --prometheus`; docs/reports.md lists the metrics.
#include <ostream>

#include "harness/results/results_document.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

// `results` is the run the report judged: its start, build and GPUs' UUIDs label the figures.
void write_check_prometheus(const CheckReport& report, const ResultsDocument& results, std::ostream& out);

}  // namespace gpubench
