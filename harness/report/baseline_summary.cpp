#include "harness/report/baseline_summary.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "benchmarks/catalogue.hpp"
#include "benchmarks/common/metric_id.hpp"
#include "harness/baseline/baseline_builder.hpp"
#include "harness/report/text_table.hpp"
#include "harness/results/statistics.hpp"

namespace gpubench {
namespace {

struct FamilySummary {
  int metrics = 0;
  int gating = 0;
  int gating_elsewhere = 0;  // on a node none of the runs used: less the host-bound figures (node_bound_gating.hpp)
  std::vector<double> spreads;  // between runs, relative to expected
  double largest = -1;
  std::string largest_id;
};

std::string percent(double fraction) { return format_number(100 * fraction, 2) + " %"; }

}  // namespace

void print_baseline_summary(const Baseline& baseline, std::ostream& out) {
  std::map<std::string, FamilySummary> families;
  for (const auto& [id, metric] : baseline.metrics) {
    FamilySummary& f = families[MetricId(id).family()];
    ++f.metrics;
    f.gating += metric.gates;
    f.gating_elsewhere += metric.gates && !node_bound(id);
    const double spread = metric.expected > 0 ? spread_between_runs(metric.run_values) / metric.expected : 0;
    f.spreads.push_back(spread);
    if (spread > f.largest) {
      f.largest = spread;
      f.largest_id = id;
    }
  }
  TextTable table;
  table.add_column("family");
  table.add_column("metrics", TextTable::Align::Right);
  table.add_column("gating", TextTable::Align::Right);
  table.add_column("informational", TextTable::Align::Right);
  table.add_column("gating elsewhere", TextTable::Align::Right);
  table.add_column("median spread", TextTable::Align::Right);
  table.add_column("largest spread", TextTable::Align::Right);
  table.add_column("largest in");
  for (const auto& [family, f] : families) {
    table.add_row({family, std::to_string(f.metrics), std::to_string(f.gating), std::to_string(f.metrics - f.gating),
                   std::to_string(f.gating_elsewhere), percent(median(f.spreads)), percent(f.largest), f.largest_id});
  }
  table.print(out);
}

}  // namespace gpubench
