#pragma once
// `gpubench report`'s trends: how each headline metric moved over a series of runs, a point per run, a line per host,
// with the change points `gpubench history` finds (E-divisive means, change_points.hpp, with its default options)
// marked on the line and described below the chart: when, from what to what, and what else changed in the
// environment between the two runs around it (history.hpp).
#include <vector>

#include "harness/report/report_charts.hpp"

namespace gpubench {

// `runs`: oldest first. A chart per metric that `headline` matches and two runs or more hold, in the order first seen.
std::vector<ReportChart> trend_charts(const std::vector<SourcedResults>& runs, const IdPattern& headline);

}  // namespace gpubench
