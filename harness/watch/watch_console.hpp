#pragma once
// What `gpubench watch` prints once the job has ended (to standard error, so the job's own output stays as it was):
// how the job ended, where the ceilings came from, then per diagnosed GPU its summary, the job's median rates beside
// this node's measured ceilings ("HBM 3.91 TB/s, 88 % of the 4.43 TB/s this GPU measured"), each fired rule with its
// evidence, fix and source, and the rules that could not run with why; the job's host figures; where the document
// went.
#include <ostream>
#include <string>

#include "harness/watch/watch_document.hpp"

namespace gpubench {

// `written` lists the files written ("document: watch-....json"), each a line at the end; `colour` adds ANSI colours.
void print_watch_console(const WatchDocument& document, const std::vector<std::string>& written, std::ostream& out,
                         bool colour);

// One GPU's median rates beside its ceilings, as the console prints them (no ceilings: the rates alone).
std::string watch_rates_text(const GpuTimeline& gpu, const GpuCeilings* ceilings);
// The job's host figures: "the job used 2.1 of its 16 cores (median), busiest thread 98 % of a core, I/O wait 0 %".
std::string watch_host_text(const WatchTimeline& timeline);

}  // namespace gpubench
