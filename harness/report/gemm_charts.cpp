#include "harness/report/gemm_charts.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "benchmarks/common/metric_id.hpp"
#include "harness/report/figure_text.hpp"
#include "harness/report/id_segments.hpp"

namespace gpubench {
namespace {

struct GemmFigure {
  std::string precision;
  std::string shape;  // "8192x8192x8192", "burst 8192x8192x8192", "max achievable"
  std::string gpu;
};

std::optional<GemmFigure> gemm_figure(const Metric& metric) {
  const std::vector<std::string> s = id_segments(metric.id);
  if (s.size() < 5 || s[0] != "gemm" || s.back() != "tflops" || !parse_gpu_segment(s[s.size() - 2])) {
    return std::nullopt;
  }
  const std::string& gpu = s[s.size() - 2];
  if (s.size() == 6 && s[1] == "burst") return GemmFigure{s[2], "burst " + s[3], gpu};
  if (s.size() == 5 && s[1] == "max_achievable") return GemmFigure{s[2], "max achievable", gpu};
  if (s.size() == 5) return GemmFigure{s[1], s[2], gpu};
  return std::nullopt;
}

struct Collected {
  std::vector<std::string> shapes, gpus;  // in the order first seen
  std::map<std::string, std::map<std::string, double>> tflops;  // gpu -> shape -> TFLOP/s
  std::vector<double> peaks;    // each distinct peak, in the order first seen
  std::vector<double> fractions;  // of each figure's own peak
};

void add_once(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

ReportChart chart_of(const std::string& precision, const Collected& c) {
  ReportChart chart;
  chart.title = "gemm " + precision + ", TFLOP/s per shape";
  chart.kind = ChartKind::Bar;
  chart.x_axis = ChartXAxis::Categories;
  chart.x_title = "shape (M x N x K)";
  chart.y_title = "TFLOP/s";
  chart.categories = c.shapes;
  for (const std::string& gpu : c.gpus) {
    ChartSeries bars;
    bars.label = gpu;
    const std::map<std::string, double>& by_shape = c.tflops.at(gpu);
    for (const std::string& shape : c.shapes) {
      const auto found = by_shape.find(shape);
      bars.y.push_back(found == by_shape.end() ? std::nullopt : std::optional<double>(found->second));
    }
    chart.series.push_back(std::move(bars));
  }
  for (double peak : c.peaks) {
    ChartSeries line;
    line.label = "peak " + readable_figure(peak) + " TFLOP/s";
    line.y.assign(c.shapes.size(), peak);
    line.reference = true;
    chart.series.push_back(std::move(line));
  }
  if (!c.fractions.empty()) {
    const auto [lowest, highest] = std::minmax_element(c.fractions.begin(), c.fractions.end());
    chart.notes.push_back("each bar is " + percent_text(*lowest) + " to " + percent_text(*highest) + " of its GPU's peak");
  }
  return chart;
}

}  // namespace

std::vector<ReportChart> gemm_charts(const ResultsDocument& results) {
  std::vector<std::string> precisions;
  std::map<std::string, Collected> collected;
  for (const Metric& metric : results.metrics) {
    const std::optional<GemmFigure> figure = gemm_figure(metric);
    if (!figure) continue;
    add_once(precisions, figure->precision);
    Collected& c = collected[figure->precision];
    add_once(c.shapes, figure->shape);
    add_once(c.gpus, figure->gpu);
    c.tflops[figure->gpu][figure->shape] = metric.value;
    if (metric.peak && *metric.peak > 0) {
      if (std::find(c.peaks.begin(), c.peaks.end(), *metric.peak) == c.peaks.end()) c.peaks.push_back(*metric.peak);
      c.fractions.push_back(metric.value / *metric.peak);
    }
  }
  std::vector<ReportChart> charts;
  for (const std::string& precision : precisions) charts.push_back(chart_of(precision, collected.at(precision)));
  return charts;
}

}  // namespace gpubench
