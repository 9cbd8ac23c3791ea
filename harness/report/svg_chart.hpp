#pragma once
// One of `report`'s charts (report_charts.hpp) drawn as inline SVG when the report is written, so that the page
// shows it in any browser, offline and with scripts blocked, and needs no chart library: axes with their ticks
// (chart_axes.hpp: a linear one from zero), a line or a bar per series and point, each with its value as a tooltip
// (an SVG <title>), change points marked, a reference (a peak) as a dashed line, and the legend below.
// html_report.js only lets a click on a legend entry hide its series. Header-only.
#include <cmath>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/report/chart_axes.hpp"
#include "harness/report/report_charts.hpp"
#include "harness/report/xml_text.hpp"

namespace gpubench {
namespace svg_chart_detail {

constexpr double kWidth = 560;
constexpr double kLeft = 64;
constexpr double kRight = 14;
constexpr double kTop = 10;
constexpr double kPlotHeight = 230;
constexpr double kAxisBand = 44;        // below the plot: the x ticks' labels and the axis's title
constexpr double kLegendRow = 18;
constexpr double kCharWidth = 6.4;      // of the 11 px legend text, to lay the legend out in rows
constexpr double kTickSpacing = 46;     // the least room between two labelled sizes, in px
constexpr std::size_t kMostDots = 60;   // a series of more points is a line without dots or tooltips
constexpr const char* kReferenceColour = "#444444";
constexpr const char* kChangePointColour = "#d62728";

inline std::string colour(std::size_t series) {
  static const char* const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                        "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  return palette[series % 10];
}

// Past ten lines the colours repeat: a dash tells them apart.
inline std::string dash(std::size_t series) { return series / 10 % 2 == 1 ? " stroke-dasharray=\"6 3\"" : ""; }

// References are all one grey: the first dashed, each further one of a chart with a dash pattern of its own.
inline std::string reference_dash(std::size_t reference) {
  static const char* const patterns[] = {"6 4", "2 3", "10 3 2 3", "12 5", "1 4", "6 2 1 2 1 2"};
  return std::string(" stroke-dasharray=\"") + patterns[reference % 6] + "\"";
}

inline std::string px(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

inline std::string figure(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.5g", value);
  return text;
}

struct Frame {
  double left, right, top, bottom;
};

// What a chart's values span, and the axis for them.
inline ChartAxis value_axis(const ReportChart& chart) {
  std::optional<double> lowest, highest;
  for (const ChartSeries& series : chart.series) {
    for (const std::optional<double>& y : series.y) {
      if (!y || !std::isfinite(*y) || (chart.y_log && *y <= 0)) continue;
      lowest = std::min(lowest.value_or(*y), *y);
      highest = std::max(highest.value_or(*y), *y);
    }
  }
  if (!chart.y_log && chart.y_at_least) {
    lowest = std::min(lowest.value_or(0.0), *chart.y_at_least);
    highest = std::max(highest.value_or(*chart.y_at_least), *chart.y_at_least);
  }
  if (!lowest) return linear_axis(0, 1);
  return chart.y_log ? log_axis(*lowest, *highest) : linear_axis(*lowest, *highest);
}

inline ChartAxis x_axis(const ReportChart& chart) {
  std::vector<double> xs;
  for (const ChartSeries& series : chart.series) xs.insert(xs.end(), series.x.begin(), series.x.end());
  if (chart.x_axis == ChartXAxis::Bytes) return bytes_axis(xs);
  if (xs.empty()) return linear_axis(0, 1);
  return linear_axis(*std::min_element(xs.begin(), xs.end()), *std::max_element(xs.begin(), xs.end()));
}

class Plot {
 public:
  Plot(const ReportChart& chart, Frame frame)
      : chart_(chart), frame_(frame), x_(x_axis(chart)), y_(value_axis(chart)) {}

  const ChartAxis& x() const { return x_; }
  const ChartAxis& y() const { return y_; }
  const Frame& frame() const { return frame_; }
  double band() const { return (frame_.right - frame_.left) / std::max<std::size_t>(1, chart_.categories.size()); }

  double x_at(double value) const { return frame_.left + x_.fraction(value) * (frame_.right - frame_.left); }
  double category_at(std::size_t i) const { return frame_.left + band() * (static_cast<double>(i) + 0.5); }
  double y_at(double value) const { return frame_.bottom - y_.fraction(value) * (frame_.bottom - frame_.top); }
  double baseline() const { return y_.log ? frame_.bottom : y_at(0); }

  // Where point i of a series is, when it has a value the axis can show.
  std::optional<std::pair<double, double>> point(const ChartSeries& series, std::size_t i) const {
    const std::optional<double>& y = series.y[i];
    if (!y || !std::isfinite(*y) || (y_.log && *y <= 0)) return std::nullopt;
    const bool categories = chart_.x_axis == ChartXAxis::Categories;
    if (!categories && (i >= series.x.size() || (x_.log && series.x[i] <= 0))) return std::nullopt;
    return std::make_pair(categories ? category_at(i) : x_at(series.x[i]), y_at(*y));
  }

  // "gpu0, 4 KiB: 1.6166 GB/s"
  std::string point_text(const ChartSeries& series, std::size_t i) const {
    std::string where;
    if (chart_.x_axis == ChartXAxis::Categories) {
      where = i < chart_.categories.size() ? chart_.categories[i] : "";
    } else {
      where = chart_.x_axis == ChartXAxis::Bytes ? bytes_text(series.x[i]) : figure(series.x[i]) + " s";
    }
    return series.label + ", " + where + ": " + figure(*series.y[i]) + " " + chart_.y_title;
  }

 private:
  const ReportChart& chart_;
  Frame frame_;
  ChartAxis x_;
  ChartAxis y_;
};

inline void write_grid(const ReportChart& chart, const Plot& plot, std::ostream& out) {
  const Frame& f = plot.frame();
  out << "<g>";
  for (double tick : plot.y().ticks) {
    const std::string y = px(plot.y_at(tick));
    out << "<line stroke=\"#e6e6e6\" x1=\"" << px(f.left) << "\" x2=\"" << px(f.right) << "\" y1=\"" << y
        << "\" y2=\"" << y << "\"/><text fill=\"#444\" x=\"" << px(f.left - 6) << "\" y=\"" << y
        << "\" text-anchor=\"end\" dominant-baseline=\"middle\">" << tick_text(tick) << "</text>";
  }
  const auto x_tick = [&](double x, const std::string& label) {
    out << "<line stroke=\"#888\" x1=\"" << px(x) << "\" x2=\"" << px(x) << "\" y1=\"" << px(f.bottom) << "\" y2=\""
        << px(f.bottom + 4) << "\"/><text fill=\"#444\" x=\"" << px(x) << "\" y=\"" << px(f.bottom + 16)
        << "\" text-anchor=\"middle\">" << xml_escape(label) << "</text>";
  };
  if (chart.x_axis == ChartXAxis::Categories) {
    // As many category labels as fit, the last always among them.
    const std::size_t n = chart.categories.size();
    std::size_t longest = 1;
    for (const std::string& c : chart.categories) longest = std::max(longest, c.size());
    const std::size_t every = std::max<std::size_t>(1, static_cast<std::size_t>(
                                                           std::ceil(longest * kCharWidth * 1.1 / plot.band())));
    for (std::size_t i = 0; i < n; ++i) {
      if ((n - 1 - i) % every == 0) x_tick(plot.category_at(i), chart.categories[i]);
    }
  } else if (chart.x_axis == ChartXAxis::Bytes) {
    // A label at each size measured that has room for it, the largest always.
    std::vector<double> kept;
    for (std::size_t i = 0; i < plot.x().ticks.size(); ++i) {
      const double at = plot.x_at(plot.x().ticks[i]);
      const bool largest = i + 1 == plot.x().ticks.size();
      if (largest && !kept.empty() && at - plot.x_at(kept.back()) < kTickSpacing) kept.pop_back();
      if (largest || kept.empty() || at - plot.x_at(kept.back()) >= kTickSpacing) kept.push_back(plot.x().ticks[i]);
    }
    for (double size : kept) x_tick(plot.x_at(size), bytes_text(size));
  } else {
    for (double tick : plot.x().ticks) x_tick(plot.x_at(tick), tick_text(tick));
  }
  out << "<line stroke=\"#888\" x1=\"" << px(f.left) << "\" x2=\"" << px(f.right) << "\" y1=\"" << px(plot.baseline())
      << "\" y2=\"" << px(plot.baseline()) << "\"/>"
      << "<text font-weight=\"600\" x=\"" << px((f.left + f.right) / 2) << "\" y=\"" << px(f.bottom + 36)
      << "\" text-anchor=\"middle\">" << xml_escape(chart.x_title) << "</text>"
      << "<text font-weight=\"600\" transform=\"translate(14," << px((f.top + f.bottom) / 2) << ") rotate(-90)\" "
      << "text-anchor=\"middle\">" << xml_escape(chart.y_title) << "</text></g>\n";
}

// A reference as a dashed line: across the whole plot where it is one value, else through its points.
inline void write_reference(const ChartSeries& series, std::size_t reference, const Plot& plot, std::ostream& out) {
  std::vector<std::pair<double, double>> points;
  for (std::size_t i = 0; i < series.y.size(); ++i) {
    if (const auto p = plot.point(series, i)) points.push_back(*p);
  }
  if (points.empty()) return;
  const bool level =
      std::all_of(points.begin(), points.end(), [&](const auto& p) { return p.second == points[0].second; });
  std::string path;
  if (level) {
    path = "M" + px(plot.frame().left) + " " + px(points[0].second) + "H" + px(plot.frame().right);
  } else {
    for (const auto& [x, y] : points) path += (path.empty() ? "M" : "L") + px(x) + " " + px(y);
  }
  out << "<path d=\"" << path << "\" fill=\"none\" stroke=\"" << kReferenceColour
      << "\" stroke-width=\"1.5\"" << reference_dash(reference) << "><title>" << xml_escape(series.label)
      << "</title></path>";
}

// A line through the points; a gap where a point is missing, except across runs (a trend's runs of other hosts).
inline std::size_t write_line(const ReportChart& chart, const ChartSeries& series, std::size_t index, const Plot& plot,
                              std::ostream& out) {
  std::string path;
  bool pen_down = false;
  std::vector<std::size_t> drawn;
  for (std::size_t i = 0; i < series.y.size(); ++i) {
    const auto p = plot.point(series, i);
    if (!p) {
      if (chart.x_axis != ChartXAxis::Categories) pen_down = false;
      continue;
    }
    path += (pen_down ? "L" : "M") + px(p->first) + " " + px(p->second);
    pen_down = true;
    drawn.push_back(i);
  }
  out << "<path d=\"" << path << "\" fill=\"none\" stroke=\"" << colour(index) << "\" stroke-width=\"2\""
      << dash(index) << "/>";
  const bool dots = drawn.size() <= kMostDots;
  for (std::size_t i : drawn) {
    const auto [x, y] = *plot.point(series, i);
    const bool marked = std::find(series.marked.begin(), series.marked.end(), i) != series.marked.end();
    if (marked) {
      out << "<path class=\"change-point\" d=\"M" << px(x) << " " << px(y - 8) << "L" << px(x + 7) << " " << px(y + 5)
          << "L" << px(x - 7) << " " << px(y + 5) << "Z\" fill=\"" << kChangePointColour << "\"><title>change point: "
          << xml_escape(plot.point_text(series, i)) << "</title></path>";
    } else if (dots) {
      out << "<circle cx=\"" << px(x) << "\" cy=\"" << px(y) << "\" r=\"2.5\" fill=\"" << colour(index) << "\"><title>"
          << xml_escape(plot.point_text(series, i)) << "</title></circle>";
    }
  }
  return drawn.size();
}

// The series' bars, the `place`th of `bar_series` side by side in each category's band.
inline std::size_t write_bars(const ChartSeries& series, std::size_t index, std::size_t place, std::size_t bar_series,
                              const Plot& plot, std::ostream& out) {
  const double group = plot.band() * 0.8;
  const double width = group / static_cast<double>(std::max<std::size_t>(1, bar_series));
  std::size_t drawn = 0;
  for (std::size_t i = 0; i < series.y.size(); ++i) {
    const auto p = plot.point(series, i);
    if (!p) continue;
    const double left = p->first - group / 2 + width * static_cast<double>(place);
    const double top = std::min(p->second, plot.baseline());
    out << "<rect x=\"" << px(left) << "\" y=\"" << px(top) << "\" width=\"" << px(width * 0.92) << "\" height=\""
        << px(std::fabs(plot.baseline() - p->second)) << "\" fill=\"" << colour(index) << "\"><title>"
        << xml_escape(plot.point_text(series, i)) << "</title></rect>";
    ++drawn;
  }
  return drawn;
}

struct LegendEntry {
  double x, y;
};

// Entries laid out left to right in rows as wide as the chart.
inline std::vector<LegendEntry> legend_layout(const ReportChart& chart, double top) {
  std::vector<LegendEntry> entries;
  double x = kLeft;
  double y = top;
  for (const ChartSeries& series : chart.series) {
    const double width = 26 + kCharWidth * static_cast<double>(series.label.size()) + 14;
    if (x + width > kWidth - kRight && x > kLeft) {
      x = kLeft;
      y += kLegendRow;
    }
    entries.push_back({x, y});
    x += width;
  }
  return entries;
}

}  // namespace svg_chart_detail

// Writes the chart as one <svg> element; returns the labels of the series it could draw no point of (a series
// without a value, or none the axis can show), which a page reports as errors.
inline std::vector<std::string> write_svg_chart(const ReportChart& chart, std::ostream& out) {
  using namespace svg_chart_detail;
  const double plot_bottom = kTop + kPlotHeight;
  const std::vector<LegendEntry> legend = legend_layout(chart, plot_bottom + kAxisBand + 6);
  const double height = (legend.empty() ? plot_bottom + kAxisBand : legend.back().y + kLegendRow) + 4;
  const Plot plot(chart, {kLeft, kWidth - kRight, kTop, plot_bottom});
  out << "<svg class=\"chart\" viewBox=\"0 0 " << px(kWidth) << " " << px(height)
      << "\" role=\"img\" aria-label=\"" << xml_escape(chart.title) << "\">\n";
  write_grid(chart, plot, out);
  std::size_t bar_series = 0;
  for (const ChartSeries& series : chart.series) bar_series += chart.kind == ChartKind::Bar && !series.reference;
  std::vector<std::string> not_drawn;
  std::size_t bars = 0;
  std::size_t references = 0;
  for (std::size_t s = 0; s < chart.series.size(); ++s) {
    const ChartSeries& series = chart.series[s];
    out << "<g class=\"series\" data-series=\"" << s << "\">";
    std::size_t drawn = 1;
    if (series.reference) {
      write_reference(series, references++, plot, out);
    } else if (chart.kind == ChartKind::Bar) {
      drawn = write_bars(series, s, bars++, bar_series, plot, out);
    } else {
      drawn = write_line(chart, series, s, plot, out);
    }
    out << "</g>\n";
    if (drawn == 0) not_drawn.push_back(series.label);
  }
  out << "<g class=\"legend\">";
  references = 0;
  for (std::size_t s = 0; s < chart.series.size(); ++s) {
    const ChartSeries& series = chart.series[s];
    const LegendEntry& at = legend[s];
    const std::string colour_of_entry = series.reference ? kReferenceColour : colour(s);
    out << "<g class=\"entry\" data-series=\"" << s << "\">";
    if (chart.kind == ChartKind::Bar && !series.reference) {
      out << "<rect x=\"" << px(at.x) << "\" y=\"" << px(at.y - 5) << "\" width=\"20\" height=\"10\" fill=\""
          << colour_of_entry << "\"/>";
    } else {
      out << "<line x1=\"" << px(at.x) << "\" x2=\"" << px(at.x + 20) << "\" y1=\"" << px(at.y) << "\" y2=\""
          << px(at.y) << "\" stroke=\"" << colour_of_entry << "\" stroke-width=\"2\""
          << (series.reference ? reference_dash(references++) : dash(s)) << "/>";
    }
    out << "<text x=\"" << px(at.x + 26) << "\" y=\"" << px(at.y) << "\" dominant-baseline=\"middle\">"
        << xml_escape(series.label) << "</text></g>";
  }
  out << "</g>\n</svg>\n";
  return not_drawn;
}

}  // namespace gpubench
