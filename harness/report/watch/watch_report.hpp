#pragma once
// `gpubench report` of a watch document (schema "gpubench.watch/1", docs/watch.md): the job's timeline drawn with
// report's own charts (report_charts.hpp, drawn as inline SVG by html_report), per GPU one chart per group of
// quantities over the job's seconds, with this node's measured ceilings as dashed horizontal lines where the
// document has them:
//
// - activity: utilisation, SM active, tensor pipes, DRAM active, as shares on a 0..1 axis;
// - math pipes: tensor, FP16, FP32 and FP64 pipes, 0..1 (GPM only);
// - HBM bandwidth (DRAM activity x the GPU's theoretical peak), against the measured HBM ceiling;
// - PCIe and NVLink, in GB/s (PCIe as payload, as show prints it), against the measured copy ceilings;
// - power, SM clock, temperature (against NVML's slowdown threshold), memory used (against the total);
//
// then the job's host figures (CPU cores against the cores it may use; its busiest thread and I/O wait as shares).
// Each GPU's section names its diagnosis and lists the fired rules with evidence and fix, the clear ones and those
// that could not run, and holds show's table of medians (watch_show.hpp). Every axis starts at zero. A series
// longer than kMostWatchPoints is thinned (thinned_series.hpp) with a note saying so.
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "harness/report/report_charts.hpp"
#include "harness/watch/watch_document.hpp"

namespace gpubench {

inline constexpr std::size_t kMostWatchPoints = 2000;

// The page's sections: one per GPU of the timeline, then the host's.
std::vector<ReportSection> watch_report_sections(const WatchDocument& document, const std::string& path);
// The whole page (html_report.hpp's write_html_page).
void write_watch_report(const WatchDocument& document, const std::string& path, std::ostream& out);

}  // namespace gpubench
