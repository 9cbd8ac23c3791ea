#include "harness/report/trend_charts.hpp"

#include <algorithm>
#include <map>

#include "harness/report/figure_text.hpp"
#include "harness/verdict/change_points.hpp"
#include "harness/verdict/history.hpp"

namespace gpubench {
namespace {

// "2026-11-29 17:05" from "2026-11-29T17:05:48Z"; anything else as it is.
std::string run_time(const std::string& started_at) {
  if (started_at.size() < 16 || started_at[10] != 'T') return started_at;
  return started_at.substr(0, 10) + " " + started_at.substr(11, 5);
}

const Metric* metric_in(const ResultsDocument& results, const std::string& id) {
  for (const Metric& metric : results.metrics) {
    if (metric.id == id) return &metric;
  }
  return nullptr;
}

std::string describe_change(const ChangePoint& change, const Metric& after, const std::string& host,
                            const ResultsDocument& run_before, const ResultsDocument& run_after) {
  const bool worse = after.better == Better::Higher ? change.relative_change < 0 : change.relative_change > 0;
  std::string text = run_time(run_after.run.started_at) + ", " + host + ": " + readable_figure(change.before_median) +
                     " -> " + readable_figure(change.after_median) + " " + after.unit + " (" +
                     (change.relative_change >= 0 ? "+" : "") + percent_text(change.relative_change) + ", " +
                     (worse ? "worse" : "better") + ", confidence " + percent_text(1 - change.p_value) +
                     ", between runs " + run_before.run.id + " and " + run_after.run.id + ")";
  std::string environment;
  for (const std::string& difference : environment_differences(run_before, run_after)) {
    environment += (environment.empty() ? "" : "; ") + difference;
  }
  return text + "; what else changed: " + (environment.empty() ? "nothing recorded" : environment);
}

ReportChart trend_of(const std::string& id, const std::vector<SourcedResults>& runs) {
  ReportChart chart;
  chart.title = id;
  chart.x_axis = ChartXAxis::Categories;
  chart.x_title = "run";
  for (const SourcedResults& run : runs) chart.categories.push_back(run_time(run.results.run.started_at));
  std::vector<std::string> hosts;  // in the order first seen
  for (const SourcedResults& run : runs) {
    const std::string& host = run.results.run.host;
    if (metric_in(run.results, id) && std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
  }
  for (const std::string& host : hosts) {
    ChartSeries line;
    line.label = host;
    line.y.assign(runs.size(), std::nullopt);
    std::vector<std::size_t> held;  // the runs of this host that hold the metric: the series history reads
    std::vector<double> values;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      if (runs[r].results.run.host != host) continue;
      const Metric* metric = metric_in(runs[r].results, id);
      if (!metric) continue;
      chart.y_title = metric->unit;
      line.y[r] = metric->value;
      held.push_back(r);
      values.push_back(metric->value);
    }
    for (const ChangePoint& change : find_change_points(values)) {
      const std::size_t before = held[change.index - 1], after = held[change.index];
      line.marked.push_back(after);
      chart.notes.push_back(describe_change(change, *metric_in(runs[after].results, id), host, runs[before].results,
                                            runs[after].results));
    }
    chart.series.push_back(std::move(line));
  }
  return chart;
}

}  // namespace

std::vector<ReportChart> trend_charts(const std::vector<SourcedResults>& runs, const IdPattern& headline) {
  std::vector<std::string> ids;  // in the order first seen
  std::map<std::string, int> runs_holding;
  for (const SourcedResults& run : runs) {
    for (const Metric& metric : run.results.metrics) {
      if (!headline.matches(metric.id)) continue;
      if (runs_holding[metric.id]++ == 0) ids.push_back(metric.id);
    }
  }
  std::vector<ReportChart> charts;
  for (const std::string& id : ids) {
    if (runs_holding.at(id) >= 2) charts.push_back(trend_of(id, runs));
  }
  return charts;
}

}  // namespace gpubench
