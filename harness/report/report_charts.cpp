#include "harness/report/report_charts.hpp"

#include <algorithm>

#include "harness/report/gemm_charts.hpp"
#include "harness/report/size_charts.hpp"
#include "harness/report/stress_charts.hpp"
#include "harness/report/trend_charts.hpp"

namespace gpubench {
namespace {

std::vector<ShowTable> tables_of(const ShowReport& shown, std::initializer_list<ShowTableKind> kinds) {
  std::vector<ShowTable> kept;
  for (const ShowTable& table : shown.tables) {
    if (std::find(kinds.begin(), kinds.end(), table.kind) != kinds.end()) kept.push_back(table);
  }
  return kept;
}

}  // namespace

ReportPage report_page(std::vector<SourcedResults> runs, const IdPattern& trend_metrics) {
  std::stable_sort(runs.begin(), runs.end(), [](const SourcedResults& a, const SourcedResults& b) {
    return a.results.run.started_at < b.results.run.started_at;
  });
  ReportPage page;
  for (const SourcedResults& run : runs) page.runs.push_back(run_label(run.results, run.path));
  const SourcedResults& last = runs.back();
  const ShowReport shown = show_tables(last.results, last.path, "");
  page.sections = {
      {"Against size", "each figure measured at two sizes or more; a dashed line is the figures' peak",
       size_charts(last.results), {}, {}},
      {"GEMM", "TFLOP/s per shape and precision; a dashed line is the peak (SMs x clock x per-SM rate)",
       gemm_charts(last.results), {}, {}},
      {"GPU pairs", "cell (row A, column B) is the id's gpuA-gpuB; the darker, the higher", {},
       tables_of(shown, {ShowTableKind::PeerMatrix}), {}},
      {"Stress", "over the stress run, per GPU", stress_charts(last.results, last.path), {}, {}},
      {"Other figures", "each figure not drawn against size or in a GPU-pair matrix, as gpubench show lists it", {},
       tables_of(shown, {ShowTableKind::List}), {}},
      {"Findings", "GPUs whose aggregate copy bandwidth with every peer at once falls below their siblings'", {},
       tables_of(shown, {ShowTableKind::Findings}), {}},
      {"Measured nothing", "benchmarks that failed or could not run here", {},
       tables_of(shown, {ShowTableKind::Failures, ShowTableKind::Skipped}), {}},
  };
  page.sections.erase(std::remove_if(page.sections.begin(), page.sections.end(),
                                     [](const ReportSection& s) { return s.charts.empty() && s.tables.empty(); }),
                      page.sections.end());
  if (runs.size() >= 2) {
    ReportSection trends{"Trends", "one point per run; a marked point is a change point, described below its chart",
                         trend_charts(runs, trend_metrics), {}, {}};
    if (trends.charts.empty()) trends.about = "none of the headline metrics is in two runs or more";
    page.sections.push_back(std::move(trends));
  }
  return page;
}

}  // namespace gpubench
