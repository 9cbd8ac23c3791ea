#include "harness/verdict/confirmation.hpp"

#include <map>
#include <set>
#include <sstream>

namespace gpubench {
namespace {

std::string describe(const Metric& pooled, const MetricVerdict& again) {
  std::ostringstream out;
  out.precision(4);
  out << "measured again in " << pooled.samples.size() << " fresh process" << (pooled.samples.size() == 1 ? "" : "es")
      << ": median " << pooled.value << " " << pooled.unit << " (" << (again.change >= 0 ? "+" : "");
  out.precision(1);
  out << std::fixed << 100 * again.change << " %)";
  return out.str();
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
  for (const Metric& m : confirmation.measurements) {
    pooled.samples.push_back(m.value);
    pooled.throttled = pooled.throttled || m.throttled;
  }
  pooled.statistics = summarize(pooled.samples);
  pooled.value = pooled.statistics.median;
  return pooled;
}

void apply_confirmations(CheckReport& report, const ResultsDocument& results) {
  std::map<std::string, const Confirmation*> confirmations;
  for (const Confirmation& c : results.confirmations) {
    if (!c.measurements.empty()) confirmations[c.metric] = &c;
  }
  for (MetricVerdict& v : report.verdicts) {
    const auto confirmation = confirmations.find(v.id);
    if (!is_suspect(v) || confirmation == confirmations.end() || !v.judged_against) continue;
    const std::size_t advice = v.reason.find(kMeasureAgainAdvice);
    if (advice != std::string::npos) v.reason.erase(advice, std::string(kMeasureAgainAdvice).size());
    const Metric pooled = pooled_measurement(*confirmation->second);
    const MetricVerdict again = judge_metric(pooled, v.id, *v.judged_against);
    // The fresh processes decide the verdict, so theirs is the figure it shows; the first stays beside it.
    v.first_value = v.value;
    v.value = pooled.value;
    v.change = again.change;
    v.remeasured_processes = static_cast<int>(pooled.samples.size());
    const bool reproduced = again.kind == VerdictKind::Regression;
    if (v.kind == VerdictKind::Regression && reproduced) {
      v.reason += "; confirmed, " + describe(pooled, again);
    } else if (v.kind == VerdictKind::Regression) {
      v.kind = VerdictKind::Noisy;
      v.reason = "did not reproduce: " + v.reason + "; " + describe(pooled, again) + ", " + to_string(again.kind);
    } else if (reproduced) {
      v.kind = VerdictKind::Regression;
      v.reason = "confirmed when measured again: " + v.reason + "; " + describe(pooled, again) + ", a regression";
    } else {
      v.reason += "; " + describe(pooled, again) + ", " + to_string(again.kind);
    }
  }
  sort_worst_first(report.verdicts);
}

}  // namespace gpubench
