#pragma once
// `gpubench compare`: several runs side by side, one column per run, ratios against the first. Works across
// GPU models: only metrics every run has are compared; the others are summed up per family. Each later run is judged
// against the first as `check --against FIRST` judges it (run_as_baseline.hpp): a change is clear (a regression or
// an improvement) only past the figure's tolerance and past its noise, with the rules of the node kind's baseline
// where there is one, else the family's default tolerance and the runs' own repetitions. A figure that measures the
// host is not judged against one run (its cost moves between processes far more than within one), and across nodes
// it is marked as such; neither counts in a summary's geomean. A figure summed over all GPUs of a node is not
// judged between runs on different numbers of GPUs. A figure `check --confirm` measured again shows (and is judged
// by) the fresh processes' median. Each later run is summarised per family. Its formats are comparison_report's.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/baseline/baseline_builder.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/report/run_label.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

// A difference is beyond the noise below this p-value (compare.py's default alpha).
inline constexpr double kNoiseAlpha = 0.05;
// No test with fewer repetitions than this on either side (compare.py tests from 2 and warns below 9): with 3
// against 3, even runs that do not overlap at all give p = 0.1 (2 of the 20 orderings are as extreme).
inline constexpr std::size_t kFewestRepetitionsToTest = 4;
// A ratio this close to 1 prints as 1.000, the table's three decimals: the runs are the same, neither better nor
// worse.
inline constexpr double kSameRatioWithin = 0.0005;

// A run and its column in the table.
struct ComparedRun {
  std::string key;  // "[1]", "[2]", ...
  RunLabel label;
  std::size_t gpu_count = 0;  // the GPUs the run measured (run.devices)
  // Each other process seen on a GPU during a family: "another process (pid 4242, python3, 20.0 GiB) used GPU 0
  // during gemm" (contention.hpp).
  std::vector<std::string> other_processes;
};

enum class Direction { Better, Worse, Same, NotComparable };
const char* to_string(Direction direction);  // "better", "worse", "same", "not_comparable"

enum class Noise { Beyond, Within, TooFewRepetitions };
const char* to_string(Noise noise);  // "beyond", "within", "too_few_repetitions"

// Why a later run's figure was judged as it was, where check's verdict alone does not say.
enum class Standing {
  Judged,              // check's verdict stands
  NotComparable,       // a sum over all GPUs of nodes with other numbers of GPUs
  HostBoundElsewhere,  // measures the host, and the runs are on different nodes
  HostBoundOneRun,     // measures the host, and one run cannot say how much it moves between processes
};

// One later run's value against the first run's.
struct Difference {
  Direction direction = Direction::Same;
  Noise noise = Noise::TooFewRepetitions;
  std::optional<double> p_value;  // absent with too few repetitions
  std::size_t first_repetitions = 0;
  std::size_t repetitions = 0;
  // Every repetition of one run lies beyond every repetition of the other: what can be said with too few for the
  // test (equal runs are apart by chance 2 times in C(n+m, n): 1 in 10 with 3 and 3).
  bool apart = false;
  std::string not_comparable;  // why, when direction is NotComparable
  // How the later run's kernel differs from the first's ("algo_tile 201 -> 248"; measuring_method.hpp): a cause to
  // weigh before the GPU. "" when the same, or unknown.
  std::string method_change;
  // As `check --against FIRST` judges it: regression and improvement are the clear changes.
  VerdictKind verdict = VerdictKind::Pass;
  Standing standing = Standing::Judged;
  std::string reason;  // check's
  double tolerance = 0;  // relative
  double noise_band = 0;  // relative: how far noise alone moves it
  std::string contention;  // "another process (...) used GPU 0 during gemm", in either run; "" when none was seen
  bool clearly() const {
    return standing == Standing::Judged && (verdict == VerdictKind::Regression || verdict == VerdictKind::Improvement);
  }
  bool host_bound() const { return standing == Standing::HostBoundElsewhere || standing == Standing::HostBoundOneRun; }
};

// With too few repetitions to test, the chance that two runs of the same thing come out apart.
double chance_apart(std::size_t first_repetitions, std::size_t repetitions);

// One family's metrics, for one later run against the first.
struct FamilySummary {
  std::string family;  // "all" for every family together
  int metrics = 0;
  int better = 0;
  int same = 0;
  int worse = 0;
  int not_comparable = 0;
  int clearly_better = 0;  // an improvement, as check --against judges it
  int clearly_worse = 0;   // a regression, as check --against judges it
  int host_bound = 0;      // of `metrics`, those that measure the host: not judged, left out of the geomean
  // The geometric mean of the ratios but the host-bound figures', each taken so that above 1 is better (first /
  // later where lower is better); absent when no ratio could be taken.
  std::optional<double> geomean_gain;
};

struct RunSummary {
  std::string run;  // the later run's key
  bool same_node = true;  // the later run used a GPU of the first run's node
  std::vector<FamilySummary> families;  // by name, then "all"
};

struct ComparisonRow {
  std::string metric;
  std::string unit;
  Better better = Better::Higher;
  std::vector<double> values;  // one per run
  std::vector<double> ratios;  // one per run: value / first run's value
  std::vector<bool> remeasured;  // one per run: `check --confirm` measured it again; its value is their median
  std::vector<Difference> against_first;  // one per later run: against_first[r - 1] is run r's
};

// The figures of one family that only some runs hold.
struct NotShared {
  std::string family;
  std::string only_in;  // "[1], [3]"
  int figures = 0;
};

// The node kind's baseline, whose rules judge each later run against the first (which figures gate, their
// tolerance and run-to-run spread), and the same GPU model's baselines for a GPU's own figures it cannot judge.
struct ComparisonRules {
  const Baseline* kind = nullptr;  // null: none; the family's default tolerances and the runs' repetitions judge
  std::string path;
  std::vector<SourcedBaseline> same_model;
};

struct Comparison {
  std::vector<ComparedRun> runs;
  std::vector<ComparisonRow> rows;
  std::vector<std::string> not_shared;  // "metric (only in: [1], [3])"
  std::vector<NotShared> not_shared_by_family;  // by family, then by the runs that hold them
  std::vector<RunSummary> summaries;    // one per later run
  std::string rules_path;  // the node kind's baseline that lent its rules; "" when none
};

// Whether a metric is a sum over every GPU of its node (all_gpus, a GPU's concurrent copies with every peer), which
// a node with another number of GPUs sums over another number of GPUs.
bool summed_over_the_nodes_gpus(const std::string& metric);

// Whether `later` differs from `first` beyond their repetitions' noise, and which way is better.
Difference difference_between(const Metric& first, const Metric& later);

// `filter`: regex searched in metric ids (empty: all). `sort_by`: "metric" or "ratio" (largest change from
// the first run first). Throws std::invalid_argument for a bad regex or sort key.
Comparison compare_runs(const std::vector<SourcedResults>& runs, const std::string& filter, const std::string& sort_by,
                        const ComparisonRules& rules = {});

}  // namespace gpubench
