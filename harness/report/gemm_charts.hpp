#pragma once
// `gpubench report`'s GEMM charts: TFLOP/s per shape against the peak, a bar chart per precision with a bar per GPU
// at each shape. Shapes as gemm's ids name them: gemm/<precision>/<MxNxK> (sustained), gemm/burst/<precision>/<MxNxK>
// ("burst MxNxK") and gemm/max_achievable/<precision> ("max achievable"), each ending in /gpuN/tflops; in the
// order of the document. Each peak the metrics carry (SMs x clock x per-SM rate, docs/results-schema.md) is drawn
// as a reference line, and a note gives the fractions of it reached.
#include <vector>

#include "harness/report/report_charts.hpp"

namespace gpubench {

std::vector<ReportChart> gemm_charts(const ResultsDocument& results);

}  // namespace gpubench
