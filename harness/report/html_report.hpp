#pragma once
// `gpubench report`'s page: one HTML file that opens offline. Everything it needs is in it: its style and its script
// (html_report.css and html_report.js, compiled in, html_report_assets.hpp), Chart.js as the caller read it, and
// the charts' model (report_charts.hpp) as JSON. Sections, titles, notes and tables are HTML written here; peer
// matrices are tables whose cells are coloured by their value (a heatmap). The script draws the charts into their
// canvases and writes into #render-status how many it drew (data-charts, of data-expected) and how many errors
// there were (data-errors), so that a headless browser can check the page.
#include <ostream>
#include <string>

#include "harness/report/report_charts.hpp"

namespace gpubench {

// `chart_library`: the text of Chart.js 3 (a build that defines the global `Chart`, such as Debian's
// libjs-chart.js chart.min.js). Throws std::invalid_argument, before writing anything, when it cannot be put
// inside a <script> element (it holds "</script").
void write_html_report(const ReportPage& page, const std::string& chart_library, std::ostream& out);

}  // namespace gpubench
