#pragma once
// `gpubench show`: a results document as the tools its figures come from print them, in tables that do not depend
// on the format they are written in (console_report, csv_report, json_report and markdown_report each write them):
//
// - collective: NCCL's figures as nccl-tests prints them, one table per collective, algorithm and protocol, a row
//   per size: size, count, type, then time, algbw and busbw out of place and in place side by side;
// - peer matrix: figures of a pair of GPUs (p2p/.../gpuA-gpuB/...) as nvbandwidth prints them, one N x N matrix
//   per measurement, cell (row A, column B) from the id's gpuA-gpuB;
// - size sweep: ids that differ only in a size segment (4KiB, 1MiB, 1GiB), a row per series and a column per size,
//   one table per family, figure and unit that has two sizes or more;
// - list: every other metric, its id, value and unit, the fraction of its peak where it has one, and what a GEMM
//   figure is (sustained or a burst, at which shape);
// - findings: the GPUs whose aggregate copy bandwidth with every peer at once falls below their siblings'
//   (verdict/sibling_aggregates.hpp), from the metrics shown;
// - failures: the benchmarks that failed, each with the reason and what to try; skipped: what could not run here, a
//   row per reason with how many benchmarks and which families.
// A size sweep or a peer matrix whose figures have a peak says it, with the fraction of it reached.
//
// Besides, every metric shown as one table of fixed columns, a row each (csv_report writes it), for a spreadsheet
// or a script that loads many runs.
//
// Tables come in the order of their first metric in the document; the list, findings, failures and skipped come
// last.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "harness/report/run_label.hpp"
#include "harness/results/results_document.hpp"

namespace gpubench {

// Not measured (a GPU against itself, a size one series lacks), a label, a whole number, or a measured figure.
using ShowCell = std::variant<std::monostate, std::string, std::uint64_t, double>;

struct ShowColumn {
  std::string name;   // "size", "time", "gpu1", "4KiB", "id"
  std::string unit;   // "B", "us", "GB/s"; empty where the table's unit applies or the cells are labels
  std::string group;  // "out_of_place" or "in_place" for a collective's figures; empty elsewhere
};

enum class ShowTableKind { Collective, PeerMatrix, SizeSweep, List, Findings, Failures, Skipped, Metrics };
// "collective", "peer_matrix", "size_sweep", "list", "findings", "failures", "skipped", "metrics"
const char* to_string(ShowTableKind kind);

struct ShowTable {
  ShowTableKind kind = ShowTableKind::List;
  std::string title;  // what is measured and how to read it
  std::string unit;   // of every figure in a peer matrix or a size sweep; empty where the columns say
  std::vector<ShowColumn> columns;
  std::vector<std::vector<ShowCell>> rows;  // each as long as `columns`
};

struct ShowReport {
  RunLabel run;
  // The metrics `check --confirm` measured again: their value is the fresh processes' median (the value check
  // judged), not the run's first measurement.
  std::vector<std::string> remeasured;
  std::vector<ShowTable> tables;  // none empty
  ShowTable metrics;  // kind Metrics: every metric shown, in the document's order; columns kShowMetricColumns
};

// Before each metric `check --confirm` measured again, in every format but CSV.
inline constexpr const char* kRemeasuredNote =
    "measured again by check --confirm (the value shown is the fresh processes' median, which check judged): ";

// The columns of ShowReport::metrics, always these and in this order (docs/reports.md describes each).
inline const std::vector<std::string> kShowMetricColumns = {
    "run_id", "host", "started_at", "id", "family", "gpu", "value", "unit", "better", "repetitions", "min", "max",
    "cv", "peak", "fraction_of_peak", "sm_clock_mhz", "throttled", "measured_as"};

// `filter`: a regex searched in metric ids, and in the benchmark names of failures and skips (empty: all). Throws
// std::invalid_argument for a bad one.
ShowReport show_tables(const ResultsDocument& results, const std::string& path, const std::string& filter);

}  // namespace gpubench
