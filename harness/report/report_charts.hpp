#pragma once
// `gpubench report`: what a run, or a series of runs, shows as charts, in a model that does not depend on how it is
// drawn (html_report draws it with Chart.js). The last run by start time is shown in full:
//
// - against size: every figure measured at two sizes or more (PCIe, P2P, NCCL busbw per algorithm and protocol,
//   the L2 sweep, ...), size_charts.hpp;
// - GEMM: TFLOP/s per shape and precision against the peak, gemm_charts.hpp;
// - GPU pairs: show's N x N matrices (show_tables.hpp), to be drawn as heatmaps;
// - stress: the telemetry of a stress run over time, per GPU, stress_charts.hpp;
// - other figures: show's list of the figures in none of its other tables, with their values;
// - failed and skipped: show's tables of the benchmarks that measured nothing.
//
// With two runs or more, the trends of the headline metrics over the runs with their change points come last,
// trend_charts.hpp.
#include <optional>
#include <string>
#include <vector>

#include "harness/baseline/baseline_builder.hpp"
#include "harness/report/run_label.hpp"
#include "harness/report/show_tables.hpp"
#include "harness/results/id_pattern.hpp"

namespace gpubench {

enum class ChartKind { Line, Bar };

// Sizes in bytes (a log scale, ticks at the sizes measured), seconds since a start, or named categories.
enum class ChartXAxis { Bytes, Seconds, Categories };

struct ChartSeries {
  std::string label;
  std::vector<double> x;                 // Bytes and Seconds: ascending; Categories: empty
  std::vector<std::optional<double>> y;  // one per x, or per category; nothing where nothing was measured
  std::vector<std::size_t> marked;       // points to mark: change points
  bool reference = false;                // a peak or another figure to measure against, not a measurement
};

struct ReportChart {
  std::string title;
  ChartKind kind = ChartKind::Line;
  ChartXAxis x_axis = ChartXAxis::Bytes;
  std::string x_title;
  std::string y_title;
  bool y_log = false;  // the figures span two decades or more
  // A linear axis reaches at least this far, whatever the figures (a share's axis runs to 1 even when the job used
  // a tenth of it); nothing: as far as the figures.
  std::optional<double> y_at_least;
  std::vector<std::string> categories;
  std::vector<ChartSeries> series;
  std::vector<std::string> notes;  // shown below the chart: change points, how a long series was thinned
};

struct ReportSection {
  std::string title;
  std::string about;  // one line under the title
  std::vector<ReportChart> charts;
  std::vector<ShowTable> tables;  // peer matrices (drawn as heatmaps), failures, skips
  std::vector<std::string> lines;  // a list under `about`, before the charts: a watch document's diagnosis
};

struct ReportPage {
  std::vector<RunLabel> runs;           // oldest first; the last is the one shown in full
  std::vector<ReportSection> sections;  // none empty, but for trends that no headline metric has (its `about` says so)
};

// `runs`: at least one; ordered by start time here (runs that started at the same time keep their order).
// `trend_metrics`: the metrics whose trend is drawn when there are two runs or more. Throws InputError for a stress
// section that is not as docs/results-schema.md describes it.
ReportPage report_page(std::vector<SourcedResults> runs, const IdPattern& trend_metrics);

}  // namespace gpubench
