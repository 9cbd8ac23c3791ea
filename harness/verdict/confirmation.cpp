#include "harness/verdict/confirmation.hpp"

#include <map>
#include <set>
#include <sstream>

#include "harness/verdict/link_cause.hpp"

namespace gpubench {
namespace {

// "in 3 fresh processes (the run measured 495.6 TFLOP/s first, a regression there)": the first measurement without a
// change of its own, so that a row says one change, the one of the value it shows.
std::string fresh_processes(const Metric& pooled, const MetricVerdict& first) {
  std::ostringstream out;
  out.precision(4);
  out << "in " << pooled.samples.size() << " fresh process" << (pooled.samples.size() == 1 ? "" : "es")
      << " (the run measured " << *first.value << " " << pooled.unit << " first, " << to_string(first.kind) << " there)";
  return out.str();
}

// A reason without the advice to measure again, which has now been taken.
std::string without_advice(std::string reason) {
  const std::size_t advice = reason.find(kMeasureAgainAdvice);
  if (advice != std::string::npos) reason.erase(advice, std::string(kMeasureAgainAdvice).size());
  return reason;
}

}  // namespace

bool is_suspect(const MetricVerdict& verdict) {
  return verdict.kind == VerdictKind::Regression || (verdict.kind == VerdictKind::Noisy && verdict.worse);
}

std::vector<std::string> unconfirmed_suspects(const CheckReport& report, const ResultsDocument& results) {
  std::set<std::string> measured_again;
  for (const Confirmation& c : results.confirmations) {
    if (!c.measurements.empty()) measured_again.insert(c.metric);
  }
  std::vector<std::string> ids;
  for (const MetricVerdict& v : report.verdicts) {
    if (is_suspect(v) && v.value && measured_again.count(v.id) == 0) ids.push_back(v.id);
  }
  return ids;
}

Metric pooled_measurement(const Confirmation& confirmation) {
  Metric pooled = confirmation.measurements.front();
  pooled.samples.clear();
  pooled.throttled = false;
  pooled.clock_event_reasons = 0;
  for (const Metric& m : confirmation.measurements) {
    pooled.samples.push_back(m.value);
    pooled.throttled = pooled.throttled || m.throttled;
    pooled.clock_event_reasons |= m.clock_event_reasons;
  }
  pooled.statistics = summarize(pooled.samples);
  pooled.value = pooled.statistics.median;
  return pooled;
}

ResultsDocument with_confirmed_values(const ResultsDocument& results) {
  ResultsDocument confirmed = results;
  for (const Confirmation& c : results.confirmations) {
    if (c.measurements.empty()) continue;
    for (Metric& m : confirmed.metrics) {
      if (m.id == c.metric) m = pooled_measurement(c);
    }
  }
  return confirmed;
}

void apply_confirmations(CheckReport& report, const ResultsDocument& results) {
  std::map<std::string, const Confirmation*> confirmations;
  for (const Confirmation& c : results.confirmations) {
    if (!c.measurements.empty()) confirmations[c.metric] = &c;
  }
  for (MetricVerdict& v : report.verdicts) {
    const auto confirmation = confirmations.find(v.id);
    if (!is_suspect(v) || confirmation == confirmations.end() || !v.judged_against) continue;
    const Metric pooled = pooled_measurement(*confirmation->second);
    const MetricVerdict again = judge_metric(pooled, v.id, *v.judged_against);
    const MetricVerdict first = v;
    // The fresh processes decide the verdict, so theirs is the figure it shows, with its change and noise; the first
    // stays beside it.
    v.first_value = first.value;
    v.value = pooled.value;
    v.change = again.change;
    v.noise = again.noise;
    v.worse = again.worse;
    v.remeasured_processes = static_cast<int>(pooled.samples.size());
    const bool reproduced = again.kind == VerdictKind::Regression;
    const std::string measured_again = fresh_processes(pooled, first);
    if (first.kind == VerdictKind::Regression && reproduced) {
      v.reason = without_advice(again.reason) + "; confirmed " + measured_again;
    } else if (first.kind == VerdictKind::Regression) {
      v.kind = VerdictKind::Noisy;
      v.reason = "did not reproduce " + measured_again + ": " + without_advice(again.reason);
    } else if (reproduced) {
      v.kind = VerdictKind::Regression;
      v.reason = "confirmed when measured again " + measured_again + ": " + without_advice(again.reason);
    } else {
      v.reason = "measured again " + measured_again + ": " + without_advice(again.reason);
    }
    // The reason was made again from the fresh processes' figure, so its cause is named again.
    if (const std::string cause = link_cause(results, report.verdicts, v); !cause.empty()) v.reason += "; " + cause;
  }
  sort_worst_first(report.verdicts);
}

}  // namespace gpubench
