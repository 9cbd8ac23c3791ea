#include "harness/report/gemm_charts.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "harness/report/figure_text.hpp"
#include "harness/report/gemm_figure.hpp"

namespace gpubench {
namespace {

// The bar a figure is drawn as: its shape, a burst's "burst MxNxK", or "max achievable MxNxK" (the shape it reached
// its maximum at, where the params say).
std::string bar_name(const GemmFigure& figure) {
  if (figure.timing == GemmTiming::Burst) return "burst " + figure.shape;
  if (figure.timing == GemmTiming::MaxAchievable) {
    return "max achievable" + (figure.shape.empty() ? "" : " " + figure.shape);
  }
  return figure.shape;
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
    const std::string bar = bar_name(*figure);
    add_once(c.shapes, bar);
    add_once(c.gpus, figure->gpu);
    c.tflops[figure->gpu][bar] = metric.value;
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
