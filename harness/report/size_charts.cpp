#include "harness/report/size_charts.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>

#include "benchmarks/common/metric_id.hpp"
#include "harness/report/id_segments.hpp"
#include "harness/report/size_segment.hpp"

namespace gpubench {
namespace {

// Where one metric goes: which chart, which line, at which size.
struct SizedFigure {
  std::string chart;  // the key of its chart: the id with what varies in the chart as '*', and the unit
  std::string title;
  std::string line;
  std::uint64_t bytes = 0;
};

// "gpu0", "gpu0 -> gpu1", "all GPUs"; nothing for a segment that names no GPU.
std::optional<std::string> gpu_label(const std::string& segment) {
  if (parse_gpu_segment(segment)) return segment;
  if (const auto pair = parse_gpu_pair_segment(segment)) {
    return "gpu" + std::to_string(pair->first) + " -> gpu" + std::to_string(pair->second);
  }
  if (segment == "all_gpus") return std::string("all GPUs");
  return std::nullopt;
}

// The segments other than `left_out`, joined by spaces: "pcie h2d pinned bandwidth".
std::string title_without(const std::vector<std::string>& segments, const std::set<std::size_t>& left_out) {
  std::string title;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    if (left_out.count(i) == 0) title += (title.empty() ? "" : " ") + segments[i];
  }
  return title;
}

std::optional<SizedFigure> sized_figure(const Metric& metric) {
  std::vector<std::string> s = id_segments(metric.id);
  std::optional<std::size_t> size_at;
  for (std::size_t i = 1; i + 1 < s.size() && !size_at; ++i) {
    if (parse_size_segment(s[i])) size_at = i;
  }
  if (!size_at) return std::nullopt;
  SizedFigure figure;
  figure.bytes = *parse_size_segment(s[*size_at]);
  const bool collective = s.size() == 7 && s[0] == "nccl" && *size_at == 4;
  const bool enqueue_time = s.size() == 5 && s[0] == "nccl" && *size_at == 3;  // nccl/<collective>/<plain|graph>/...
  if (enqueue_time) {
    figure.line = s[2];
    figure.title = "nccl " + s[1] + " " + s[4];
    s[2] = s[3] = "*";
  } else if (collective) {
    figure.line = s[2] + "/" + s[3];
    std::string placement = s[5];  // "out_of_place" -> "out of place"
    std::replace(placement.begin(), placement.end(), '_', ' ');
    figure.title = "nccl " + s[1] + " " + s[6] + ", " + placement;
    s[2] = s[3] = s[4] = "*";
  } else {
    std::set<std::size_t> left_out = {*size_at};
    const std::size_t who = s.size() - 2;
    const std::optional<std::string> gpus = who > *size_at ? gpu_label(s[who]) : std::nullopt;
    if (gpus) left_out.insert(who);
    figure.title = title_without(s, left_out);
    figure.line = gpus ? *gpus : figure.title;
    for (std::size_t i : left_out) s[i] = "*";
  }
  figure.title += " (" + metric.unit + ")";
  figure.chart = joined_id(s) + " " + metric.unit;
  return figure;
}

struct Collected {
  ReportChart chart;
  std::vector<std::string> lines;  // in the order first seen
  std::map<std::string, std::map<std::uint64_t, double>> figures;  // line -> bytes -> value
  std::set<std::uint64_t> sizes;
  std::set<double> peaks;
  bool every_figure_has_a_peak = true;
};

ChartSeries line_of(const std::string& label, const std::map<std::uint64_t, double>& figures) {
  ChartSeries series;
  series.label = label;
  for (const auto& [bytes, value] : figures) {
    series.x.push_back(static_cast<double>(bytes));
    series.y.push_back(value);
  }
  return series;
}

// Figures from 0.01 to 300 GB/s (an all-reduce of 8 B and of 1 GiB) are only readable on a log scale.
bool spans_two_decades(const std::vector<ChartSeries>& lines) {
  double lowest = 0, highest = 0;
  bool first = true;
  for (const ChartSeries& line : lines) {
    for (const std::optional<double>& y : line.y) {
      if (!y) continue;
      if (*y <= 0) return false;  // a log scale cannot show 0
      lowest = first ? *y : std::min(lowest, *y);
      highest = first ? *y : std::max(highest, *y);
      first = false;
    }
  }
  return !first && highest >= 100 * lowest;
}

}  // namespace

std::vector<ReportChart> size_charts(const ResultsDocument& results) {
  std::vector<std::string> order;
  std::map<std::string, Collected> charts;
  for (const Metric& metric : results.metrics) {
    const std::optional<SizedFigure> figure = sized_figure(metric);
    if (!figure) continue;
    auto [found, added] = charts.try_emplace(figure->chart);
    Collected& c = found->second;
    if (added) {
      order.push_back(figure->chart);
      c.chart.title = figure->title;
      c.chart.x_title = "size";
      c.chart.y_title = metric.unit;
    }
    if (c.figures.count(figure->line) == 0) c.lines.push_back(figure->line);
    c.figures[figure->line][figure->bytes] = metric.value;
    c.sizes.insert(figure->bytes);
    if (metric.peak) c.peaks.insert(*metric.peak);
    c.every_figure_has_a_peak = c.every_figure_has_a_peak && metric.peak.has_value();
  }
  std::vector<ReportChart> drawn;
  for (const std::string& key : order) {
    Collected& c = charts.at(key);
    if (c.sizes.size() < 2) continue;  // one size is no sweep
    for (const std::string& line : c.lines) c.chart.series.push_back(line_of(line, c.figures.at(line)));
    c.chart.y_log = spans_two_decades(c.chart.series);
    if (c.every_figure_has_a_peak && c.peaks.size() == 1) {
      std::map<std::uint64_t, double> peak;
      for (std::uint64_t bytes : c.sizes) peak[bytes] = *c.peaks.begin();
      c.chart.series.push_back(line_of("peak", peak));
      c.chart.series.back().reference = true;
    }
    drawn.push_back(std::move(c.chart));
  }
  return drawn;
}

}  // namespace gpubench
