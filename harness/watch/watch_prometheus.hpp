#pragma once
// `gpubench watch --prometheus FILE`: a node_exporter textfile rewritten after every sample (through a temporary file
// in the same folder, renamed over it), so a node exporter scrapes a live job. Each GPU's latest sample goes under
// NVIDIA dcgm-exporter's names where the quantity is the same (DCGM_FI_DEV_GPU_UTIL in %, DCGM_FI_DEV_FB_USED in MiB,
// DCGM_FI_PROF_* shares 0..1 and bytes per second), labelled as dcgm-exporter labels them (gpu="0", UUID, modelName,
// Hostname); the job's host figures, the HBM rate beside its ceiling and the findings go under gpubench_watch_*
// (docs/watch.md lists them).
#include <ostream>
#include <vector>

#include "harness/watch/watch_document.hpp"

namespace gpubench {

// `document`'s timeline so far (its last sample of each GPU and of the host), its diagnosis (may be empty while the
// job runs) and `running` (1 while the job runs, 0 once watch has finished).
void write_watch_prometheus(const WatchDocument& document, bool running, std::ostream& out);

}  // namespace gpubench
