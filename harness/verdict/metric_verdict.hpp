#pragma once
// The verdict on each metric of a run against a baseline, and on the run as a whole.
//
// Rule: a metric whose baseline entry does not gate (gating.hpp), or that measures the host and is checked on a
// node the baseline was not made on (node_bound_gating.hpp), is "informational" whatever it measured: shown,
// never failing. Otherwise a change within its gating tolerance (its nominal tolerance, or its noise band where
// wider: gating_tolerance) passes. A larger change is a regression (or
// an improvement) only when it is also larger than what noise explains: the baseline's noise band (its
// run-to-run spread as a prediction interval for one run, Student's t for the 3-sigma tail, see
// baseline_noise) combined with 3 standard errors of this run's own spread (1.4826 x MAD of its
// repetitions, as a standard error of their median). Otherwise it is "noisy": it moved past the tolerance,
// but no more than noise could make it move. We compare intervals rather than
// run a rank test (Mann-Whitney) because a baseline keeps one value per run, not every repetition, and
// three to five repetitions give a rank test too little power to be useful.
#include <optional>
#include <string>
#include <vector>

#include "harness/baseline/baseline_document.hpp"
#include "harness/baseline/gating.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/results/grade.hpp"
#include "harness/results/results_document.hpp"

namespace gpubench {

enum class VerdictKind { Failed, Regression, Noisy, Missing, Informational, Improvement, Pass, New };

const char* to_string(VerdictKind kind);
// Worst first: Failed, Regression, Noisy, Missing, Informational, Improvement, Pass, New.
int severity_rank(VerdictKind kind);
// What a metric's verdict does to the verdict on its GPU or node: regressions and failures fail, noisy and missing
// figures warn, the rest pass (informational among them: its noise is no finding about the node).
Grade grade_of(VerdictKind kind);

struct MetricVerdict {
  std::string id;
  VerdictKind kind = VerdictKind::Pass;
  std::optional<double> value;
  std::optional<double> expected;
  double change = 0;      // (value - expected) / expected, signed as measured
  double tolerance = 0;   // relative, the baseline's nominal one
  std::optional<GatingTolerance> gated_at;  // what it was judged at (gating.hpp); empty where it did not gate
  double noise = 0;       // relative: the combined noise band / expected
  bool worse = false;     // moved the wrong way for the metric (by its baseline's `better`)
  std::string unit;
  std::string reason;     // one sentence: why this verdict
  // The baseline file that judged it: the node kind's, or for a GPU's own figure it cannot judge, one of the same GPU
  // model (gpu_model_fallback.hpp). Empty for a figure no baseline has (failed or new).
  std::string judged_by;
  std::optional<BaselineMetric> judged_against;  // that baseline's entry, as it judged here; to re-judge a suspect
  std::string method_change;  // how the kernel differs from the baseline's: "algo_tile 201 -> 248"; "" when it does not
  // After `check --confirm`: what the run measured first; `value` and `change` are then the fresh processes' median.
  std::optional<double> first_value;
  int remeasured_processes = 0;
  // Another process on its GPU while its family ran, as a person reads it (contention.hpp); "" when none was seen.
  std::string contention;
};

// A figure that decides acceptance (the catalogue's acceptance figures) and that no baseline judged: shown as
// informational or as not in the baseline, so a check must not end with a plain PASS.
struct UnjudgedFigure {
  std::string id;
  std::string reason;
};

struct CheckReport {
  std::string results_path;
  std::string baseline_path;
  std::string rules_path;  // with --against: the node kind's baseline whose rules judged (run_as_baseline.hpp); "" none
  std::string host;
  MachineKind kind;
  bool baseline_made_here = false;  // one of the baseline's runs used a GPU of this run (node_bound_gating.hpp)
  std::vector<MetricVerdict> verdicts;  // worst first
  std::vector<UnjudgedFigure> unjudged_deciding;  // in the order of `verdicts`
  std::string run_filter;      // the run's own --filter, "" when it had none (run_filter.hpp)
  int left_out_by_filter = 0;  // the baseline's figures that filter left out: counted, not listed as missing
  // What differs between the baseline's driver, CUDA, cuBLAS and NCCL and the run's: "driver 570.1 -> 580.2".
  std::vector<std::string> version_changes;
  std::vector<std::string> gpus;  // each GPU the run used, as a person finds it: "gpu0 PCI 0000:06:00.0, serial ..."
  int at_power_cap = 0;           // figures measured while the power cap held the clock (expected under load)
  bool passed() const;
  int count(VerdictKind kind) const;
};

// The advice that ends a noisy figure's reason on the worse side, until `check --confirm` has measured it again
// (apply_confirmations then replaces it with what the fresh processes gave). On the better side the advice is to
// re-run with more repetitions: nothing is measured again there.
inline constexpr const char* kMeasureAgainAdvice = "; measure it again in fresh processes (check --confirm 3)";

// A relative change as every verdict states it: "+1.2 %", "-0.05 %".
std::string signed_percent(double fraction);

// One metric on its own (also to re-judge a re-measured value).
MetricVerdict judge_metric(const Metric& measured, const std::string& id, const BaselineMetric& baseline);

// `same_model`: baselines of the same GPU model on other kinds of node, which judge the GPU's own figures that
// `baseline` cannot (gpu_model_fallback.hpp).
CheckReport check_against_baseline(const ResultsDocument& results, const std::string& results_path,
                                   const Baseline& baseline, const std::string& baseline_path,
                                   const std::vector<SourcedBaseline>& same_model = {});

// The figures that decide acceptance among `verdicts` and that no baseline judged (informational, or not in it).
std::vector<UnjudgedFigure> unjudged_deciding_figures(const std::vector<MetricVerdict>& verdicts);

// By severity, worst first, and within one kind the largest change first.
void sort_worst_first(std::vector<MetricVerdict>& verdicts);

}  // namespace gpubench
