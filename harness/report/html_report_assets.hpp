#pragma once
// The HTML report's own style and script, compiled in from harness/report/html_report.css and html_report.js by
// cmake/EmbedText.cmake, so that gpubench writes a report without looking for files of its own.
namespace gpubench {

extern const char kHtmlReportStyle[];
extern const char kHtmlReportScript[];

}  // namespace gpubench
