#include "harness/report/html_report.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "gpubench/version.hpp"
#include "harness/report/html_report_assets.hpp"
#include "harness/report/show_cell_text.hpp"
#include "harness/report/svg_chart.hpp"
#include "harness/report/xml_text.hpp"

namespace gpubench {
namespace {

// Escaped for HTML text and attribute values: XML's escapes are HTML's too.
std::string html(const std::string& text) { return xml_escape(text); }

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

// The chart as SVG, with its notes. Returns whether every series has a point in it; each that has none is named
// among the page's errors.
bool write_chart(const ReportChart& chart, std::size_t index, std::vector<std::string>& errors, std::ostream& out) {
  out << "<figure class=\"chart\"><figcaption>" << html(chart.title) << "</figcaption>\n";
  const std::vector<std::string> not_drawn = write_svg_chart(chart, out);
  for (const std::string& series : not_drawn) {
    errors.push_back("chart " + std::to_string(index + 1) + " (" + chart.title + "): no point of " + series);
  }
  if (!chart.notes.empty()) {
    out << "<ul class=\"notes\">";
    for (const std::string& note : chart.notes) out << "<li>" << html(note) << "</li>";
    out << "</ul>\n";
  }
  out << "</figure>\n";
  return not_drawn.empty();
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

// The page around `sections`: its head, `heading` (HTML) under the title, the sections, the status and the script.
void write_page(const std::string& title, const std::string& h1, const std::string& heading,
                const std::vector<ReportSection>& sections, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>" << html(title) << "</title>\n"
      << "<style>\n" << kHtmlReportStyle << "</style>\n</head>\n<body>\n<header>\n<h1>" << html(h1) << "</h1>\n";
  out << heading;
  out << "<nav>";
  for (const ReportSection& section : sections) {
    out << "<a href=\"#" << anchor(section.title) << "\">" << html(section.title) << "</a> ";
  }
  out << "</nav>\n</header>\n<main>\n";
  std::size_t charts = 0;
  std::size_t drawn = 0;
  std::vector<std::string> errors;
  for (const ReportSection& section : sections) {
    out << "<section id=\"" << anchor(section.title) << "\">\n<h2>" << html(section.title) << "</h2>\n<p class=\"about\">"
        << html(section.about) << "</p>\n";
    if (!section.lines.empty()) {
      out << "<ul class=\"lines\">";
      for (const std::string& line : section.lines) out << "<li>" << html(line) << "</li>";
      out << "</ul>\n";
    }
    out << "<div class=\"grid\">\n";
    for (const ReportChart& chart : section.charts) drawn += write_chart(chart, charts++, errors, out);
    for (const ShowTable& table : section.tables) write_table(table, out);
    out << "</div>\n</section>\n";
  }
  out << "</main>\n<footer>\n<div id=\"render-status\" data-expected=\"" << charts << "\" data-charts=\"" << drawn
      << "\" data-errors=\"" << errors.size() << "\" data-done=\"true\"" << (errors.empty() ? "" : " class=\"failed\"")
      << ">" << drawn << " of " << charts
      << " charts drawn" << (errors.empty() ? "" : ", " + std::to_string(errors.size()) + " errors:");
  if (!errors.empty()) {
    out << "<ul>";
    for (const std::string& error : errors) out << "<li>" << html(error) << "</li>";
    out << "</ul>";
  }
  out << "</div>\n<p>Written by gpubench " << html(kVersion) << " (" << html(kGitRevision) << "), its charts drawn "
      << "as SVG when it was written.</p>\n</footer>\n<script>\n" << kHtmlReportScript
      << "</script>\n</body>\n</html>\n";
}

}  // namespace

void write_html_report(const ReportPage& page, std::ostream& out) {
  const RunLabel& shown = page.runs.back();
  std::ostringstream heading;
  write_runs(page, heading);
  write_page("gpubench report: " + shown.host + ", " + shown.started_at, "gpubench report", heading.str(),
             page.sections, out);
}

void write_html_page(const HtmlPageHeading& heading, const std::vector<ReportSection>& sections, std::ostream& out) {
  std::ostringstream lines;
  for (const std::string& line : heading.lines) lines << "<p class=\"run\">" << html(line) << "</p>\n";
  write_page(heading.title, heading.h1, lines.str(), sections, out);
}

}  // namespace gpubench
