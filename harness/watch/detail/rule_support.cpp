#include "harness/watch/detail/rule_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace gpubench::watch_detail {

std::string fixed(double x, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, x);
  return text;
}
std::string percent(double share) { return fixed(100 * share, 0) + " %"; }
std::string gbps(double x) { return fixed(x, x < 100 ? 1 : 0) + " GB/s"; }

std::string Tally::counts() const { return std::to_string(held) + " of " + std::to_string(readable) + " samples"; }

Tally tally(const std::vector<GpuSample>& samples, const std::function<std::optional<bool>(const GpuSample&)>& test) {
  Tally t;
  t.total = samples.size();
  for (const GpuSample& sample : samples) {
    const std::optional<bool> met = test(sample);
    if (!met) continue;
    ++t.readable;
    if (*met) ++t.held;
  }
  return t;
}

std::optional<double> median_of(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

std::optional<double> median(const std::vector<GpuSample>& samples, std::optional<double> GpuSample::*field) {
  std::vector<double> values;
  for (const GpuSample& sample : samples) {
    if (sample.*field) values.push_back(*(sample.*field));
  }
  return median_of(std::move(values));
}

const HostSample* host_at(const WatchTimeline& job, double t) {
  const auto after = std::lower_bound(job.host.begin(), job.host.end(), t,
                                      [](const HostSample& sample, double time) { return sample.t_s < time; });
  const HostSample* nearest = nullptr;
  if (after != job.host.end()) nearest = &*after;
  if (after != job.host.begin() && (!nearest || t - std::prev(after)->t_s < nearest->t_s - t)) {
    nearest = &*std::prev(after);
  }
  return nearest && std::abs(nearest->t_s - t) <= job.interval_s ? nearest : nullptr;
}

bool has_gpm(const std::vector<GpuSample>& samples) {
  return tally(samples, [](const GpuSample& s) -> std::optional<bool> {
           if (!s.sm_active) return std::nullopt;
           return true;
         }).enough();
}

WatchFinding Rule::ended(RuleOutcome outcome, std::string evidence, std::string fix, std::string cause) const {
  const bool fired = outcome == RuleOutcome::Fired;
  return {name, outcome, std::move(evidence), fired ? std::move(fix) : "", source, fired ? std::move(cause) : ""};
}

WatchFinding Rule::not_run(const std::string& why) const { return ended(RuleOutcome::CouldNotRun, "could not run: " + why); }

WatchFinding Rule::too_few(const Tally& t, const std::string& needs, bool gpm_counters) const {
  return not_run(needs + " in " + std::to_string(t.readable) + " of " + std::to_string(t.total) + " samples (it needs " +
                 std::to_string(kMinimumSamples) + " or more, and most of the timeline)" +
                 (gpm_counters ? "; NVML GPM metrics need a Hopper or later GPU and a driver that supports them" : ""));
}

WatchFinding Rule::judged(const Tally& t, std::string evidence, std::string fix) const {
  return ended(t.majority() ? RuleOutcome::Fired : RuleOutcome::Clear, std::move(evidence), std::move(fix));
}

}  // namespace gpubench::watch_detail
