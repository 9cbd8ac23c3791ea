#include "harness/verdict/metric_verdict.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "benchmarks/catalogue.hpp"
#include "benchmarks/common/metric_id.hpp"
#include "harness/baseline/gating.hpp"
#include "harness/baseline/gpu_model_fallback.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/baseline/measuring_method.hpp"
#include "harness/baseline/node_bound_gating.hpp"
#include "harness/results/clock_events.hpp"
#include "harness/results/id_pattern.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/statistics.hpp"
#include "harness/results/string_field.hpp"
#include "harness/verdict/link_cause.hpp"
#include "harness/verdict/run_filter.hpp"

namespace gpubench {
namespace {

constexpr double kSignificance = 3.0;

std::string significant(double value) {
  std::ostringstream out;
  out.precision(4);
  out << value;
  return out.str();
}

// What a person needs around the verdicts: the libraries that changed since the baseline, the cards by PCI bus id and
// serial, and how many figures the power cap held (expected under load, so not marked one by one).
void add_run_context(const ResultsDocument& results, const Baseline& baseline, CheckReport& report) {
  const nlohmann::json nothing = nlohmann::json::object();
  const nlohmann::json& run_versions =
      results.environment.is_object() && results.environment.contains("versions") ? results.environment["versions"]
                                                                                   : nothing;
  for (const char* library : {"driver", "cuda_runtime", "cublas", "nccl"}) {
    const std::string then = string_field(baseline.recorded_versions, library);
    const std::string now = string_field(run_versions, library);
    if (!then.empty() && !now.empty() && then != now) {
      report.version_changes.push_back(std::string(library) + " " + then + " -> " + now);
    }
  }
  const nlohmann::json& gpus = results.environment.is_object() && results.environment.contains("gpus")
                                  ? results.environment["gpus"]
                                  : nothing;
  for (const nlohmann::json& gpu : gpus.is_array() ? gpus : nlohmann::json::array()) {
    const auto text = [&gpu](const char* key) { return string_field(gpu, key); };
    const std::string index = gpu.is_object() && gpu.contains("index") && gpu["index"].is_number_integer()
                                  ? std::to_string(gpu["index"].get<int>())
                                  : "?";
    report.gpus.push_back("gpu" + index + " PCI " + text("pci_bus_id") + ", serial " +
                          (text("serial").empty() ? "not readable" : text("serial")) + ", " + text("uuid"));
  }
  for (const Metric& m : results.metrics) report.at_power_cap += at_power_cap(m.clock_event_reasons) ? 1 : 0;
}

}  // namespace

const char* to_string(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::Failed: return "failed";
    case VerdictKind::Regression: return "regression";
    case VerdictKind::Noisy: return "noisy";
    case VerdictKind::Missing: return "missing";
    case VerdictKind::Informational: return "informational";
    case VerdictKind::Improvement: return "improvement";
    case VerdictKind::Pass: return "pass";
    case VerdictKind::New: return "new";
  }
  return "unknown";
}

int severity_rank(VerdictKind kind) { return static_cast<int>(kind); }

Grade grade_of(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::Failed:
    case VerdictKind::Regression: return Grade::Fail;
    case VerdictKind::Noisy:
    case VerdictKind::Missing: return Grade::Warn;
    case VerdictKind::Informational:
    case VerdictKind::Improvement:
    case VerdictKind::Pass:
    case VerdictKind::New: return Grade::Pass;
  }
  return Grade::Pass;
}

bool CheckReport::passed() const { return count(VerdictKind::Failed) == 0 && count(VerdictKind::Regression) == 0; }

int CheckReport::count(VerdictKind kind) const {
  return static_cast<int>(std::count_if(verdicts.begin(), verdicts.end(), [kind](const MetricVerdict& v) { return v.kind == kind; }));
}

std::string signed_percent(double fraction) {
  std::ostringstream out;
  out.precision(fraction != 0 && std::fabs(fraction) < 0.001 ? 2 : 1);
  out << std::fixed << (fraction >= 0 ? "+" : "") << 100 * fraction << " %";
  return out.str();
}

MetricVerdict judge_metric(const Metric& measured, const std::string& id, const BaselineMetric& baseline) {
  MetricVerdict v;
  v.id = id;
  v.unit = measured.unit;
  v.value = measured.value;
  v.expected = baseline.expected;
  v.tolerance = baseline.tolerance;
  if (baseline.expected <= 0) {
    v.kind = baseline.gates ? VerdictKind::Noisy : VerdictKind::Informational;
    v.reason = baseline.gates ? "the baseline expects 0, so no relative change can be judged" : "not gating: " + baseline.gate_reason;
    return v;
  }
  v.change = (measured.value - baseline.expected) / baseline.expected;
  const double gain = baseline.better == Better::Higher ? v.change : -v.change;
  v.worse = gain < 0;
  const double run_noise = kSignificance * median_standard_error(measured.statistics);
  const double base_noise = baseline_noise(baseline);
  const double noise = std::sqrt(run_noise * run_noise + base_noise * base_noise);
  v.noise = noise / baseline.expected;
  const std::string moved = signed_percent(v.change) + " against " + significant(baseline.expected) + " " + baseline.unit;
  if (baseline.gates) v.gated_at = gating_tolerance(baseline);
  // "the tolerance", or where the noise band set it wider, "the 17.6 % it gates at (its noise; tolerance 5.0 %)".
  const std::string gate = v.gated_at && v.gated_at->set_by_noise
                               ? "the " + signed_percent(v.gated_at->fraction).substr(1) + " it gates at (its noise; tolerance " +
                                     signed_percent(baseline.tolerance).substr(1) + ")"
                               : "the tolerance";
  if (!baseline.gates) {
    v.kind = VerdictKind::Informational;
    v.reason = "not gating: " + baseline.gate_reason + "; measured " + moved;
  } else if (std::fabs(v.change) <= v.gated_at->fraction) {
    v.kind = VerdictKind::Pass;
    v.reason = moved + ", within " +
               (v.gated_at->set_by_noise ? gate : "the " + signed_percent(baseline.tolerance).substr(1) + " tolerance");
  } else if (std::fabs(measured.value - baseline.expected) > noise) {
    v.kind = v.worse ? VerdictKind::Regression : VerdictKind::Improvement;
    v.reason = moved + ": past " + gate + " and past what noise explains (" + signed_percent(v.noise).substr(1) + ")";
  } else {
    v.kind = VerdictKind::Noisy;
    v.reason = moved + ": past " + gate + ", but noise alone could move it " + signed_percent(v.noise).substr(1) +
               (v.worse ? kMeasureAgainAdvice : "; re-run with more --repetitions");
  }
  v.method_change = method_change(baseline.method, measuring_method(measured.params));
  if (!v.method_change.empty()) v.reason += "; measured with another kernel than the baseline's: " + v.method_change;
  if (is_slowdown(measured.clock_event_reasons)) v.reason += " [measured during a thermal or hardware slowdown]";
  return v;
}

CheckReport check_against_baseline(const ResultsDocument& results, const std::string& results_path,
                                   const Baseline& baseline, const std::string& baseline_path,
                                   const std::vector<SourcedBaseline>& same_model) {
  CheckReport report;
  report.results_path = results_path;
  report.baseline_path = baseline_path;
  report.host = results.run.host;
  report.kind = baseline.kind;
  std::map<std::string, const Metric*> measured;
  for (const Metric& m : results.metrics) measured[m.id] = &m;
  std::map<std::string, const Failure*> failed;
  for (const Failure& f : results.failures) failed[f.benchmark] = &f;
  std::map<std::string, const Skip*> skipped;
  for (const Skip& s : results.skipped) skipped[s.benchmark] = &s;
  std::set<std::string> failures_reported;
  report.baseline_made_here = made_on_this_node(baseline, gpu_uuids_of(results.environment));
  add_run_context(results, baseline, report);
  const std::optional<std::string> filter = run_filter(results.run.command_line);
  if (filter) report.run_filter = *filter;

  // The node kind's baseline judges (`expected`, null where it lacks the figure), or where it cannot, for a GPU's own
  // figure, a baseline of the same GPU model.
  const auto judge = [&](const Metric& m, const std::string& id, const BaselineMetric* expected) {
    const BaselineMetric here =
        expected ? as_judged_on_node(*expected, id, report.baseline_made_here) : BaselineMetric{};
    if (const std::optional<FallbackJudge> fallback = gpu_model_judge(id, expected ? &here : nullptr, same_model)) {
      MetricVerdict v = judge_metric(m, id, fallback->metric);
      v.judged_by = fallback->path;
      v.judged_against = fallback->metric;
      v.reason += "; judged by " + fallback->path + (fallback->id == id ? "" : " (" + fallback->id + ")") +
                  ", the same GPU model's baseline, as " + baseline_path +
                  (!expected     ? " lacks it"
                   : here.gates ? " gates it only at " + gates_at_text(gating_tolerance(here))
                                : " does not gate it (" + here.gate_reason + ")");
      return v;
    }
    MetricVerdict v;
    if (expected == nullptr) {
      v.id = id;
      v.kind = VerdictKind::New;
      v.value = m.value;
      v.unit = m.unit;
      v.reason = "not in the baseline";
      return v;
    }
    v = judge_metric(m, id, here);
    v.judged_by = baseline_path;
    v.judged_against = here;
    return v;
  };
  for (const auto& [id, expected] : baseline.metrics) {
    const auto m = measured.find(id);
    if (m != measured.end()) {
      report.verdicts.push_back(judge(*m->second, id, &expected));
      // Each file passes its own checks, but a tiny expectation against a huge value still overflows.
      if (!std::isfinite(report.verdicts.back().change) || !std::isfinite(report.verdicts.back().noise)) {
        throw InputError(results_path, "metrics: " + id, "a value of " + significant(m->second->value) + " against " +
                                                             significant(expected.expected) + " expected by " + baseline_path +
                                                             " is not a finite relative change",
                         "one of the two files was edited or damaged");
      }
      continue;
    }
    MetricVerdict v;
    v.id = id;
    v.expected = expected.expected;
    v.unit = expected.unit;
    v.tolerance = expected.tolerance;
    // A metric id is its benchmark name plus the figure; a failure is recorded against the benchmark or family.
    const MetricId parts(id);
    const std::string benchmark = parts.benchmark();
    const std::string family = parts.family();
    const Failure* failure = failed.count(benchmark) ? failed[benchmark] : (failed.count(family) ? failed[family] : nullptr);
    if (failure != nullptr) {
      v.kind = VerdictKind::Failed;
      v.reason = failure->reason + " (try: " + failure->advice + ")";
      failures_reported.insert(failure->benchmark);
    } else if (filter && !skipped.count(benchmark) && left_out_by_filter(*filter, id)) {
      ++report.left_out_by_filter;
      continue;
    } else {
      v.kind = VerdictKind::Missing;
      v.reason = skipped.count(benchmark) ? "skipped: " + skipped[benchmark]->reason
                                          : "in the baseline but not measured (a different suite, or not run)";
    }
    report.verdicts.push_back(v);
  }
  for (const Failure& f : results.failures) {
    if (failures_reported.count(f.benchmark)) continue;
    MetricVerdict v;
    v.id = f.benchmark;
    v.kind = VerdictKind::Failed;
    v.reason = f.reason + " (try: " + f.advice + ")";
    report.verdicts.push_back(v);
  }
  for (const Metric& m : results.metrics) {
    if (!baseline.metrics.count(m.id)) report.verdicts.push_back(judge(m, m.id, nullptr));
  }
  add_link_causes(report.verdicts, results);
  sort_worst_first(report.verdicts);
  report.unjudged_deciding = unjudged_deciding_figures(report.verdicts);
  return report;
}

std::vector<UnjudgedFigure> unjudged_deciding_figures(const std::vector<MetricVerdict>& verdicts) {
  const IdPattern deciding(acceptance_filter(family_catalogue()));
  std::vector<UnjudgedFigure> unjudged;
  for (const MetricVerdict& v : verdicts) {
    if ((v.kind == VerdictKind::Informational || v.kind == VerdictKind::New) && deciding.matches(v.id)) {
      unjudged.push_back({v.id, v.reason});
    }
  }
  return unjudged;
}

void sort_worst_first(std::vector<MetricVerdict>& verdicts) {
  std::stable_sort(verdicts.begin(), verdicts.end(), [](const MetricVerdict& a, const MetricVerdict& b) {
    if (severity_rank(a.kind) != severity_rank(b.kind)) return severity_rank(a.kind) < severity_rank(b.kind);
    return std::fabs(a.change) > std::fabs(b.change);
  });
}

}  // namespace gpubench
