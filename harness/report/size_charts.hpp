#pragma once
// `gpubench report`'s charts of figures against size: every figure a run measured at two sizes or more, on a log
// scale of bytes. An id's size is its first segment between the family and the figure that reads as one (4KiB,
// 1GiB; size_segment.hpp).
//
// - NCCL (nccl/<collective>/<algorithm>/<protocol>/<size>/<placement>/<figure>): a chart per collective, placement
//   and figure, a line per algorithm and protocol, as one compares them in nccl-tests' output; the time per call
//   (nccl/<collective>/<plain|graph>/<size>/<figure>) a chart per collective, a line each for plain and graph;
// - the rest: a chart per id with its size and its GPU, pair of GPUs or all_gpus segment left out, a line per GPU
//   or pair (pcie/h2d/pinned: gpu0, gpu1, ...; p2p/ce_unidir: gpu0 -> gpu1, ...; cache/l2_read: gpu0, ...).
//
// When every figure of a chart has the same peak, it is drawn as a reference line. Charts come in the order of
// their first metric in the document.
#include <vector>

#include "harness/report/report_charts.hpp"

namespace gpubench {

std::vector<ReportChart> size_charts(const ResultsDocument& results);

}  // namespace gpubench
