#include "harness/report/show_tables.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "benchmarks/nccl/bus_bandwidth.hpp"
#include "benchmarks/common/metric_id.hpp"
#include "harness/report/figure_text.hpp"
#include "harness/report/gemm_figure.hpp"
#include "harness/report/id_segments.hpp"
#include "harness/report/size_segment.hpp"
#include "harness/results/id_pattern.hpp"
#include "harness/verdict/sibling_aggregates.hpp"
#include "harness/verdict/confirmation.hpp"

namespace gpubench {
namespace {

// A metric not yet in a table, with its place in the document.
struct Pending {
  std::size_t position;
  const Metric* metric;
};

// A table with the place of its first metric, by which tables are ordered.
struct PlacedTable {
  std::size_t first;
  ShowTable table;
};

// Moves the pending metrics `take` accepts out of `pending` and returns them; both keep the document's order.
template <class Take>
std::vector<Pending> take_if(std::vector<Pending>& pending, Take take) {
  std::vector<Pending> taken;
  std::vector<Pending> kept;
  for (const Pending& p : pending) (take(p) ? taken : kept).push_back(p);
  pending = std::move(kept);
  return taken;
}

// The figure measured at `key`; nothing where there is none.
template <class Key>
ShowCell figure_at(const std::map<Key, double>& figures, const Key& key) {
  const auto found = figures.find(key);
  if (found == figures.end()) return {};
  return found->second;
}

// The fraction of its peak a figure reaches, where it has one.
std::optional<double> fraction_of_peak(const Metric& metric) {
  if (metric.efficiency) return metric.efficiency;
  if (metric.peak && *metric.peak > 0) return metric.value / *metric.peak;
  return std::nullopt;
}

ShowCell percent_cell(const std::optional<double>& fraction) {
  if (!fraction) return {};
  return 100 * *fraction;
}

void append(std::vector<PlacedTable>& tables, std::vector<PlacedTable> more) {
  tables.insert(tables.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

// ---- Collectives: nccl/<collective>/<algorithm>/<protocol>/<size>/<out_of_place|in_place>/busbw.

struct CollectivePoint {
  std::string collective, algorithm, protocol;
  std::uint64_t bytes = 0;
  bool in_place = false;
};

std::optional<CollectivePoint> collective_point(const Metric& metric) {
  const std::vector<std::string> s = id_segments(metric.id);
  if (s.size() != 7 || s[0] != "nccl" || s[6] != "busbw") return std::nullopt;
  const std::optional<std::uint64_t> bytes = parse_size_segment(s[4]);
  if (!bytes || (s[5] != "out_of_place" && s[5] != "in_place")) return std::nullopt;
  return CollectivePoint{s[1], s[2], s[3], *bytes, s[5] == "in_place"};
}

// A param of at most `max_digits` decimal digits (9 fit an int, 18 a 64-bit count).
std::optional<std::uint64_t> whole_number_param(const Metric& metric, const std::string& name, std::size_t max_digits = 9) {
  const auto found = metric.params.find(name);
  if (found == metric.params.end()) return std::nullopt;
  const std::string& text = found->second;
  const bool digits = std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (text.empty() || text.size() > max_digits || !digits) return std::nullopt;
  return std::stoull(text);
}

std::string text_param(const Metric& metric, const std::string& name) {
  const auto found = metric.params.find(name);
  return found == metric.params.end() ? "" : found->second;
}

// Elements in `bytes` of a datatype named with its width in bits, as the params name it ("float32", "bfloat16").
ShowCell element_count(std::uint64_t bytes, const std::string& datatype) {
  std::size_t digits = datatype.size();
  while (digits > 0 && datatype[digits - 1] >= '0' && datatype[digits - 1] <= '9') --digits;
  if (digits == datatype.size() || datatype.size() - digits > 3) return {};
  const std::uint64_t element_bytes = std::stoull(datatype.substr(digits)) / 8;
  if (element_bytes == 0) return {};
  return bytes / element_bytes;
}

// nccl-tests' count column: the count NCCL was given (the `count` param: for an all-gather, reduce-scatter or
// all-to-all a rank's block, not the whole size), or the elements in `bytes` for a document without it.
ShowCell call_count(const Metric& metric, std::uint64_t bytes, const std::string& datatype) {
  if (const std::optional<std::uint64_t> count = whole_number_param(metric, "count", 18)) return *count;
  return element_count(bytes, datatype);
}

// time (us), algbw and busbw (GB/s) of one call, as nccl-tests prints them. The figure is busbw, the median of the
// repetitions; time and algbw are worked back from it by nccl-tests' definitions (bus_bandwidth.hpp), so that the
// three describe the same call (the params hold each repetition's own time, which differ). A collective gpubench
// does not know gets busbw alone.
std::vector<ShowCell> collective_figures(const std::string& collective, std::uint64_t bytes, const Metric& metric) {
  const std::optional<std::uint64_t> ranks = whole_number_param(metric, "ranks");
  const std::optional<Collective> kind = collective_from_id_name(collective);
  const double factor = kind && ranks ? bus_factor(*kind, static_cast<int>(*ranks)) : 0;
  if (factor <= 0 || metric.value <= 0) return {ShowCell{}, ShowCell{}, metric.value};
  const double algbw = metric.value / factor;
  return {static_cast<double>(bytes) / (algbw * 1e3), algbw, metric.value};
}

std::vector<PlacedTable> collective_tables(std::vector<Pending>& pending) {
  const std::vector<Pending> taken =
      take_if(pending, [](const Pending& p) { return collective_point(*p.metric).has_value(); });
  struct Collected {
    std::size_t first;
    CollectivePoint what;
    std::string ranks;
    std::map<std::uint64_t, std::map<bool, const Metric*>> by_size;  // bytes -> in place? -> metric
    std::set<bool> placements;
  };
  std::map<std::string, Collected> tables;
  for (const Pending& p : taken) {
    const CollectivePoint point = *collective_point(*p.metric);
    const std::string key = point.collective + "/" + point.algorithm + "/" + point.protocol;
    Collected& c =
        tables.try_emplace(key, Collected{p.position, point, text_param(*p.metric, "ranks"), {}, {}}).first->second;
    c.by_size[point.bytes][point.in_place] = p.metric;
    c.placements.insert(point.in_place);
  }
  std::vector<PlacedTable> placed;
  for (const auto& [key, c] : tables) {
    ShowTable table;
    table.kind = ShowTableKind::Collective;
    table.title = "nccl " + c.what.collective + ", algorithm " + c.what.algorithm + ", protocol " + c.what.protocol +
                  (c.ranks.empty() ? "" : ", " + c.ranks + " ranks");
    table.columns = {{"size", "B", ""}, {"count", "elements", ""}, {"type", "", ""}};
    for (bool in_place : c.placements) {  // false first: out of place, then in place, as nccl-tests prints them
      const std::string group = in_place ? "in_place" : "out_of_place";
      table.columns.insert(table.columns.end(),
                           {{"time", "us", group}, {"algbw", "GB/s", group}, {"busbw", "GB/s", group}});
    }
    for (const auto& [bytes, by_placement] : c.by_size) {
      const Metric& first = *by_placement.begin()->second;
      const std::string datatype = text_param(first, "datatype");
      std::vector<ShowCell> row = {bytes, call_count(first, bytes, datatype), datatype.empty() ? ShowCell{} : datatype};
      for (bool in_place : c.placements) {
        const auto found = by_placement.find(in_place);
        const std::vector<ShowCell> figures = found == by_placement.end()
                                                  ? std::vector<ShowCell>(3)
                                                  : collective_figures(c.what.collective, bytes, *found->second);
        row.insert(row.end(), figures.begin(), figures.end());
      }
      table.rows.push_back(std::move(row));
    }
    placed.push_back({c.first, std::move(table)});
  }
  return placed;
}

// ---- Peer matrices: any id whose second-to-last segment is a pair of GPUs, gpuA-gpuB.

// How to read one p2p measurement's matrix. Cell (row A, column B) is always the id's gpuA-gpuB.
std::string pair_reading(const std::vector<std::string>& segments) {
  static const std::map<std::string, std::string> p2p = {
      {"ce_unidir", "copy engine, one way, GPU(row) -> GPU(column)"},
      {"ce_bidir", "copy engine, both ways at once, GPU(row) <-> GPU(column)"},
      {"sm_write", "SM stores, GPU(row) writes into GPU(column)"},
      {"sm_read", "SM loads, GPU(column) reads from GPU(row)"},
      {"staged_host", "staged through host memory, GPU(row) -> GPU(column)"},
      {"latency", "pointer-chase latency, GPU(row) loads from GPU(column)'s memory"},
  };
  if (segments.size() > 2 && segments[0] == "p2p") {
    const auto found = p2p.find(segments[1]);
    if (found != p2p.end()) return found->second;
  }
  return "GPU(row) to GPU(column)";
}

std::vector<PlacedTable> peer_matrices(std::vector<Pending>& pending) {
  const std::vector<Pending> taken =
      take_if(pending, [](const Pending& p) { return MetricId(p.metric->id).gpu_pair().has_value(); });
  std::set<int> gpus;
  struct Collected {
    std::size_t first;
    std::string unit;
    std::map<std::pair<int, int>, double> cells;
    std::set<double> peaks;
    std::optional<double> best_fraction;
  };
  std::map<std::string, Collected> matrices;
  for (const Pending& p : taken) {
    const MetricId id(p.metric->id);
    const std::pair<int, int> pair = *id.gpu_pair();
    gpus.insert({pair.first, pair.second});
    Collected& m = matrices.try_emplace(id.with_any_pair(), Collected{p.position, p.metric->unit, {}, {}, {}})
                       .first->second;
    m.cells[pair] = p.metric->value;
    if (p.metric->peak) m.peaks.insert(*p.metric->peak);
    if (const std::optional<double> fraction = fraction_of_peak(*p.metric)) {
      m.best_fraction = std::max(m.best_fraction.value_or(0), *fraction);
    }
  }
  std::vector<PlacedTable> placed;
  for (const auto& [pattern, m] : matrices) {
    ShowTable table;
    table.kind = ShowTableKind::PeerMatrix;
    table.title = pattern + ": " + pair_reading(id_segments(pattern)) + ", " + m.unit;
    if (m.peaks.size() == 1 && m.best_fraction) {
      table.title += "; peak " + readable_figure(*m.peaks.begin()) + ", the best pair " +
                     percent_text(*m.best_fraction) + " of it";
    }
    table.unit = m.unit;
    table.columns.push_back({"gpu", "", ""});
    for (int column : gpus) table.columns.push_back({"gpu" + std::to_string(column), "", ""});
    for (int row_gpu : gpus) {
      std::vector<ShowCell> row = {"gpu" + std::to_string(row_gpu)};
      for (int column : gpus) row.push_back(figure_at(m.cells, std::pair<int, int>{row_gpu, column}));
      table.rows.push_back(std::move(row));
    }
    placed.push_back({m.first, std::move(table)});
  }
  return placed;
}

// ---- Size sweeps: the first segment between the family and the figure that is a size is where a series varies.

struct SweepPoint {
  std::string family, figure;
  std::string series;  // the id with its size as '*'
  std::string size;
  std::uint64_t bytes = 0;
};

std::optional<SweepPoint> sweep_point(const Metric& metric) {
  std::vector<std::string> s = id_segments(metric.id);
  for (std::size_t i = 1; i + 1 < s.size(); ++i) {
    const std::optional<std::uint64_t> bytes = parse_size_segment(s[i]);
    if (!bytes) continue;
    SweepPoint point{s.front(), s.back(), "", s[i], *bytes};
    s[i] = "*";
    point.series = joined_id(s);
    return point;
  }
  return std::nullopt;
}

std::vector<PlacedTable> size_sweeps(std::vector<Pending>& pending) {
  struct Collected {
    std::size_t first;
    std::string family, figure, unit;
    std::vector<std::string> series;  // in the order first seen
    std::map<std::string, std::map<std::uint64_t, double>> values;  // series -> bytes -> value
    std::map<std::string, std::set<double>> peaks;                  // series -> its points' peaks
    std::map<std::string, double> best_fractions;                  // series -> its best point's fraction of peak
    std::map<std::uint64_t, std::string> sizes;  // bytes -> as the ids spell it
    std::vector<std::size_t> positions;  // of its metrics, to hand back when the table is not kept
  };
  std::map<std::string, Collected> sweeps;
  for (const Pending& p : pending) {
    const std::optional<SweepPoint> point = sweep_point(*p.metric);
    if (!point) continue;
    const std::string table = point->family + "/" + point->figure + "/" + p.metric->unit;
    const Collected empty{p.position, point->family, point->figure, p.metric->unit, {}, {}, {}, {}, {}, {}};
    Collected& c = sweeps.try_emplace(table, empty).first->second;
    if (c.values.count(point->series) == 0) c.series.push_back(point->series);
    c.values[point->series][point->bytes] = p.metric->value;
    if (p.metric->peak) c.peaks[point->series].insert(*p.metric->peak);
    if (const std::optional<double> fraction = fraction_of_peak(*p.metric)) {
      double& best = c.best_fractions[point->series];
      best = std::max(best, *fraction);
    }
    c.sizes.emplace(point->bytes, point->size);
    c.positions.push_back(p.position);
  }
  std::set<std::size_t> tabulated;
  std::vector<PlacedTable> placed;
  for (const auto& [key, c] : sweeps) {
    if (c.sizes.size() < 2) continue;  // one size is no sweep: those metrics stay in the list
    tabulated.insert(c.positions.begin(), c.positions.end());
    ShowTable table;
    table.kind = ShowTableKind::SizeSweep;
    table.title = c.family + " " + c.figure + " by size, " + c.unit;
    table.unit = c.unit;
    table.columns.push_back({"series", "", ""});
    for (const auto& [bytes, name] : c.sizes) table.columns.push_back({name, "", ""});
    // Where a series has a peak: the peak, and the fraction of it the series' best size reaches.
    const bool peaks = !c.best_fractions.empty();
    if (peaks) table.columns.insert(table.columns.end(), {{"peak", "", ""}, {"best of peak", "%", ""}});
    for (const std::string& series : c.series) {
      std::vector<ShowCell> row = {series};
      const std::map<std::uint64_t, double>& values = c.values.at(series);
      for (const auto& [bytes, name] : c.sizes) row.push_back(figure_at(values, bytes));
      if (peaks) {
        const auto peak = c.peaks.find(series);
        row.push_back(peak != c.peaks.end() && peak->second.size() == 1 ? ShowCell{*peak->second.begin()} : ShowCell{});
        const auto best = c.best_fractions.find(series);
        row.push_back(best == c.best_fractions.end() ? ShowCell{} : ShowCell{100 * best->second});
      }
      table.rows.push_back(std::move(row));
    }
    placed.push_back({c.first, std::move(table)});
  }
  take_if(pending, [&tabulated](const Pending& p) { return tabulated.count(p.position) > 0; });  // out of the list
  return placed;
}

// ---- Everything else.

// Each with the fraction of its peak where it has one, and what it is where the id alone does not say (a GEMM
// figure's timing and shape).
ShowTable metric_list(const std::vector<Pending>& pending) {
  ShowTable table;
  table.kind = ShowTableKind::List;
  table.title = "other metrics";
  table.columns = {{"id", "", ""}, {"value", "", ""}, {"unit", "", ""}};
  const auto any = [&pending](auto has) { return std::any_of(pending.begin(), pending.end(), has); };
  const bool peaks = any([](const Pending& p) { return fraction_of_peak(*p.metric).has_value(); });
  const bool notes = any([](const Pending& p) { return !gemm_figure_note(*p.metric).empty(); });
  if (peaks) table.columns.push_back({"of peak", "%", ""});
  if (notes) table.columns.push_back({"measured as", "", ""});
  for (const Pending& p : pending) {
    std::vector<ShowCell> row = {p.metric->id, p.metric->value, p.metric->unit};
    if (peaks) row.push_back(percent_cell(fraction_of_peak(*p.metric)));
    if (notes) {
      const std::string note = gemm_figure_note(*p.metric);
      row.push_back(note.empty() ? ShowCell{} : ShowCell{note});
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

// "0" for gpu0, "0-1" for a pair, "all" for all_gpus; nothing for a figure of no GPU in particular (NCCL's).
ShowCell gpu_cell(const std::string& id) {
  const MetricId metric(id);
  if (const auto pair = metric.gpu_pair()) return std::to_string(pair->first) + "-" + std::to_string(pair->second);
  if (const auto gpu = metric.gpu()) return std::to_string(*gpu);
  if (("/" + id + "/").find("/all_gpus/") != std::string::npos) return std::string("all");
  return {};
}

ShowCell optional_cell(const std::optional<double>& value) {
  if (!value) return {};
  return *value;
}

ShowTable metric_rows(const ResultsDocument& results, const RunLabel& run, const IdPattern& pattern) {
  ShowTable table;
  table.kind = ShowTableKind::Metrics;
  table.title = "metrics";
  for (const std::string& name : kShowMetricColumns) table.columns.push_back({name, "", ""});
  for (const Metric& m : results.metrics) {
    if (!pattern.matches(m.id)) continue;
    const std::string note = gemm_figure_note(m);
    table.rows.push_back({run.run_id, run.host, run.started_at, m.id, MetricId(m.id).family(), gpu_cell(m.id), m.value,
                          m.unit, std::string(to_string(m.better)),
                          static_cast<std::uint64_t>(m.samples.size()), m.statistics.min, m.statistics.max,
                          m.statistics.cv, optional_cell(m.peak), optional_cell(fraction_of_peak(m)),
                          optional_cell(m.sm_clock_mhz), std::string(m.throttled ? "true" : "false"),
                          note.empty() ? ShowCell{} : ShowCell{note}});
  }
  return table;
}

// What several benchmarks skipped for one reason: the reason once, how many, and their families.
ShowTable skip_summary(const std::vector<Skip>& skipped, const IdPattern& pattern) {
  struct Reason {
    std::uint64_t count = 0;
    std::vector<std::string> families;  // in the order first seen
  };
  std::vector<std::string> order;
  std::map<std::string, Reason> reasons;
  for (const Skip& skip : skipped) {
    if (!pattern.matches(skip.benchmark)) continue;
    if (reasons.count(skip.reason) == 0) order.push_back(skip.reason);
    Reason& reason = reasons[skip.reason];
    ++reason.count;
    const std::string family = MetricId(skip.benchmark).family();
    if (std::find(reason.families.begin(), reason.families.end(), family) == reason.families.end()) {
      reason.families.push_back(family);
    }
  }
  ShowTable table{ShowTableKind::Skipped, "skipped: cannot run here", "",
                  {{"reason", "", ""}, {"benchmarks", "", ""}, {"families", "", ""}}, {}};
  for (const std::string& text : order) {
    const Reason& reason = reasons.at(text);
    std::string families;
    for (const std::string& family : reason.families) families += (families.empty() ? "" : ", ") + family;
    table.rows.push_back({text, reason.count, families});
  }
  return table;
}

// ---- Findings.

ShowTable sibling_findings(const std::vector<Metric>& metrics, const IdPattern& pattern) {
  std::vector<Metric> shown;
  for (const Metric& m : metrics) {
    if (pattern.matches(m.id)) shown.push_back(m);
  }
  ShowTable table{ShowTableKind::Findings,
                  "GPUs below their siblings: aggregate with every peer at once under 90 % of the other GPUs' median",
                  "",
                  {{"id", "", ""}, {"value", "", ""}, {"unit", "", ""}, {"reference", "", ""}, {"finding", "", ""}},
                  {}};
  for (const SiblingFinding& f : find_slow_siblings(shown)) {
    table.rows.push_back({f.metric, f.value, f.unit, f.reference, f.reason});
  }
  return table;
}

}  // namespace

const char* to_string(ShowTableKind kind) {
  switch (kind) {
    case ShowTableKind::Collective: return "collective";
    case ShowTableKind::PeerMatrix: return "peer_matrix";
    case ShowTableKind::SizeSweep: return "size_sweep";
    case ShowTableKind::List: return "list";
    case ShowTableKind::Findings: return "findings";
    case ShowTableKind::Failures: return "failures";
    case ShowTableKind::Skipped: return "skipped";
    case ShowTableKind::Metrics: return "metrics";
  }
  return "list";
}

ShowReport show_tables(const ResultsDocument& measured, const std::string& path, const std::string& filter) {
  // A figure `check --confirm` measured again shows the fresh processes' median, the value check judged.
  const ResultsDocument results = with_confirmed_values(measured);
  std::optional<IdPattern> pattern;
  try {
    pattern.emplace(filter);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(std::string("--filter ") + error.what());
  }
  ShowReport report;
  report.run = run_label(results, path);
  for (const Confirmation& c : results.confirmations) {
    if (!c.measurements.empty() && pattern->matches(c.metric)) report.remeasured.push_back(c.metric);
  }
  std::vector<Pending> pending;
  for (std::size_t i = 0; i < results.metrics.size(); ++i) {
    if (pattern->matches(results.metrics[i].id)) pending.push_back({i, &results.metrics[i]});
  }
  std::vector<PlacedTable> placed = collective_tables(pending);
  append(placed, peer_matrices(pending));
  append(placed, size_sweeps(pending));
  std::stable_sort(placed.begin(), placed.end(),
                   [](const PlacedTable& a, const PlacedTable& b) { return a.first < b.first; });
  for (PlacedTable& p : placed) report.tables.push_back(std::move(p.table));
  if (!pending.empty()) report.tables.push_back(metric_list(pending));
  if (ShowTable findings = sibling_findings(results.metrics, *pattern); !findings.rows.empty()) {
    report.tables.push_back(std::move(findings));
  }
  ShowTable failures{ShowTableKind::Failures, "failed: measured nothing", "",
                     {{"benchmark", "", ""}, {"kind", "", ""}, {"reason", "", ""}, {"advice", "", ""}}, {}};
  for (const Failure& f : results.failures) {
    if (pattern->matches(f.benchmark)) failures.rows.push_back({f.benchmark, to_string(f.kind), f.reason, f.advice});
  }
  ShowTable skipped = skip_summary(results.skipped, *pattern);
  for (ShowTable* table : {&failures, &skipped}) {
    if (!table->rows.empty()) report.tables.push_back(std::move(*table));
  }
  report.metrics = metric_rows(results, report.run, *pattern);
  return report;
}

}  // namespace gpubench
