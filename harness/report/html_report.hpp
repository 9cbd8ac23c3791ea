#pragma once
// `gpubench report`'s page: one HTML file that opens offline, in any browser, with scripts allowed or not.
// Everything it shows is in it: its style (html_report.css, compiled in, html_report_assets.hpp), each chart of the
// model (report_charts.hpp) drawn as inline SVG when the page is written (svg_chart.hpp), the sections, titles,
// notes and tables as HTML; peer matrices are tables whose cells are coloured by their value (a heatmap). Its one
// script (html_report.js) lets a click on a legend entry hide that series. #render-status says how many charts
// were drawn (data-charts, of data-expected) and lists each series no point of could be drawn (data-errors), so
// that a reader or a test can tell a complete page from one that is not.
#include <ostream>
#include <string>
#include <vector>

#include "harness/report/report_charts.hpp"

namespace gpubench {

void write_html_report(const ReportPage& page, std::ostream& out);

// The heading of a page that shows something other than runs (`report` of a watch document, watch_report.hpp).
struct HtmlPageHeading {
  std::string title;               // the window's title
  std::string h1;                  // the page's
  std::vector<std::string> lines;  // paragraphs under it, as text
};
// The same page, style, charts, tables, status and script as write_html_report's, under `heading`.
void write_html_page(const HtmlPageHeading& heading, const std::vector<ReportSection>& sections, std::ostream& out);

}  // namespace gpubench
