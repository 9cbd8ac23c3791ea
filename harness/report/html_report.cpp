#include "harness/report/html_report.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>

#include "gpubench/version.hpp"
#include "harness/report/html_report_assets.hpp"
#include "harness/report/show_cell_text.hpp"
#include "harness/report/xml_text.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

// Escaped for HTML text and attribute values: XML's escapes are HTML's too.
std::string html(const std::string& text) { return xml_escape(text); }

// A script element ends at the first "</script", in any case, wherever it stands in the script.
bool ends_a_script_element(const std::string& text) {
  std::string lower(text.size(), ' ');
  std::transform(text.begin(), text.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.find("</script") != std::string::npos;
}

const char* to_string(ChartKind kind) { return kind == ChartKind::Bar ? "bar" : "line"; }

const char* to_string(ChartXAxis axis) {
  switch (axis) {
    case ChartXAxis::Bytes: return "bytes";
    case ChartXAxis::Seconds: return "seconds";
    case ChartXAxis::Categories: return "categories";
  }
  return "categories";
}

json chart_json(const ReportChart& chart) {
  json series = json::array();
  for (const ChartSeries& s : chart.series) {
    json y = json::array();
    for (const std::optional<double>& value : s.y) y.push_back(value ? json(*value) : json(nullptr));
    series.push_back({{"label", s.label}, {"x", s.x}, {"y", y}, {"marked", s.marked}, {"reference", s.reference}});
  }
  return {{"title", chart.title},       {"kind", to_string(chart.kind)}, {"x", to_string(chart.x_axis)},
          {"x_title", chart.x_title},   {"y_title", chart.y_title},      {"y_log", chart.y_log},
          {"categories", chart.categories}, {"series", series}};
}

// JSON inside a script element: '<' written as \u003c (the same string to a JSON reader) so that no "</script"
// or "<!--" in a label can end or change the element. Bytes that are not UTF-8 (a path) become U+FFFD.
std::string script_json(const json& value) {
  const std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char c : text) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

// "against-size" from "Against size": the section's anchor.
std::string anchor(const std::string& title) {
  std::string id;
  for (char c : title) id += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '-';
  return id;
}

// A heatmap cell's background, from pale to dark blue as `t` goes from 0 to 1 (the matrix's highest figure).
std::string heat_style(double t) {
  const int low[3] = {234, 241, 251};
  const int high[3] = {31, 78, 140};
  char style[64];
  std::snprintf(style, sizeof style, "background:rgb(%d,%d,%d);color:%s", low[0] + static_cast<int>(t * (high[0] - low[0])),
                low[1] + static_cast<int>(t * (high[1] - low[1])), low[2] + static_cast<int>(t * (high[2] - low[2])),
                t > 0.55 ? "#fff" : "#111");
  return style;
}

void write_table(const ShowTable& table, std::ostream& out) {
  // Shaded from 0 to the highest figure, not from the lowest: pairs within noise of each other look alike, and a
  // pair at half the rate of the others stands out.
  const bool heatmap = table.kind == ShowTableKind::PeerMatrix;
  double highest = 0;
  for (const auto& row : table.rows) {
    for (const ShowCell& cell : row) {
      if (const double* value = std::get_if<double>(&cell)) highest = std::max(highest, *value);
    }
  }
  out << "<figure class=\"table\"><figcaption>" << html(table.title) << "</figcaption>\n<table"
      << (heatmap ? " class=\"heatmap\"" : "") << "><thead><tr>";
  for (const ShowColumn& column : table.columns) out << "<th>" << html(column_header(column)) << "</th>";
  out << "</tr></thead><tbody>\n";
  for (const auto& row : table.rows) {
    out << "<tr>";
    for (std::size_t c = 0; c < row.size(); ++c) {
      const double* value = std::get_if<double>(&row[c]);
      if (c == 0 && heatmap) {
        out << "<th>" << html(readable_cell(row[c])) << "</th>";
      } else if (value && heatmap) {
        const double t = highest > 0 ? *value / highest : 0;
        out << "<td class=\"number\" style=\"" << heat_style(t) << "\">" << html(readable_cell(row[c])) << "</td>";
      } else {
        out << "<td" << (numeric_column(table, c) ? " class=\"number\"" : "") << ">" << html(readable_cell(row[c]))
            << "</td>";
      }
    }
    out << "</tr>\n";
  }
  out << "</tbody></table></figure>\n";
}

void write_chart(const ReportChart& chart, std::size_t index, std::ostream& out) {
  out << "<figure class=\"chart\"><figcaption>" << html(chart.title) << "</figcaption>\n<div class=\"plot\"><canvas data-chart=\""
      << index << "\" role=\"img\" aria-label=\"" << html(chart.title) << "\"></canvas></div>\n";
  if (!chart.notes.empty()) {
    out << "<ul class=\"notes\">";
    for (const std::string& note : chart.notes) out << "<li>" << html(note) << "</li>";
    out << "</ul>\n";
  }
  out << "</figure>\n";
}

void write_runs(const ReportPage& page, std::ostream& out) {
  const RunLabel& shown = page.runs.back();
  out << "<p class=\"run\">Run <b>" << html(shown.run_id) << "</b> on <b>" << html(shown.host) << "</b> (" << html(shown.gpus)
      << "), started " << html(shown.started_at) << ": <code>" << html(shown.path) << "</code></p>\n";
  if (page.runs.size() < 2) return;
  out << "<details><summary>" << page.runs.size() << " runs, oldest first: the trends are drawn from all of them, the rest "
      << "from the last</summary><ol class=\"runs\">";
  for (const RunLabel& run : page.runs) out << "<li>" << html(describe(run)) << "</li>";
  out << "</ol></details>\n";
}

}  // namespace

void write_html_report(const ReportPage& page, const std::string& chart_library, std::ostream& out) {
  if (ends_a_script_element(chart_library)) {
    throw std::invalid_argument("holds \"</script\", so it cannot be put inside the page: not Chart.js as released");
  }
  json charts = json::array();
  for (const ReportSection& section : page.sections) {
    for (const ReportChart& chart : section.charts) charts.push_back(chart_json(chart));
  }
  const RunLabel& shown = page.runs.back();
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>gpubench report: " << html(shown.host) << ", " << html(shown.started_at) << "</title>\n"
      << "<style>\n" << kHtmlReportStyle << "</style>\n</head>\n<body>\n<header>\n<h1>gpubench report</h1>\n";
  write_runs(page, out);
  out << "<nav>";
  for (const ReportSection& section : page.sections) {
    out << "<a href=\"#" << anchor(section.title) << "\">" << html(section.title) << "</a> ";
  }
  out << "</nav>\n</header>\n<main>\n";
  std::size_t index = 0;
  for (const ReportSection& section : page.sections) {
    out << "<section id=\"" << anchor(section.title) << "\">\n<h2>" << html(section.title) << "</h2>\n<p class=\"about\">"
        << html(section.about) << "</p>\n<div class=\"grid\">\n";
    for (const ReportChart& chart : section.charts) write_chart(chart, index++, out);
    for (const ShowTable& table : section.tables) write_table(table, out);
    out << "</div>\n</section>\n";
  }
  out << "</main>\n<footer>\n<div id=\"render-status\" data-expected=\"" << charts.size()
      << "\" data-charts=\"0\" data-errors=\"0\" data-done=\"false\">The charts are drawn by the page's script: "
      << "allow JavaScript to see them.</div>\n<p>Written by gpubench " << html(kVersion) << " (" << html(kGitRevision)
      << "). Charts drawn with Chart.js, inlined below.</p>\n</footer>\n"
      << "<script>\n" << kHtmlReportScript << "</script>\n"
      << "<script>\n" << chart_library << "\n</script>\n"
      << "<script type=\"application/json\" id=\"report-data\">" << script_json({{"charts", charts}}) << "</script>\n"
      << "</body>\n</html>\n";
}

}  // namespace gpubench
