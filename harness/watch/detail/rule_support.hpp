#pragma once
// What every diagnosis rule uses (diagnosis_rules.cpp, starved_gpu_rule.cpp): counting the samples that can judge a
// condition and those where it held, medians, the host sample beside a GPU sample, and how a rule ends (Rule).
// Internal to harness/watch.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/watch/diagnosis_rules.hpp"
#include "harness/watch/watch_timeline.hpp"

namespace gpubench::watch_detail {

// Fewer samples than this judge nothing (own choice: five intervals, 5 s at the default 1 s).
constexpr std::size_t kMinimumSamples = 5;

std::string fixed(double x, int decimals);
std::string percent(double share);  // 0.42 -> "42 %"
std::string gbps(double x);         // "7.3 GB/s", "4296 GB/s"

// How many samples could judge a condition (all its fields read) and in how many it held.
struct Tally {
  std::size_t readable = 0;
  std::size_t held = 0;
  std::size_t total = 0;
  bool enough() const { return readable >= kMinimumSamples && 2 * readable > total; }
  bool majority() const { return 2 * held > readable; }
  std::string counts() const;  // "17 of 19 samples"
};

// `test` says whether a sample meets the condition, or nothing when the sample cannot judge it.
Tally tally(const std::vector<GpuSample>& samples, const std::function<std::optional<bool>(const GpuSample&)>& test);

std::optional<double> median_of(std::vector<double> values);  // nothing when empty
std::optional<double> median(const std::vector<GpuSample>& samples, std::optional<double> GpuSample::*field);

// The job's host sample nearest to `t` (they come in time order), when one lies within an interval of it.
const HostSample* host_at(const WatchTimeline& job, double t);

// Whether the samples hold GPM's counters (SM activity) in enough of them to judge by.
bool has_gpm(const std::vector<GpuSample>& samples);

// A rule: its name and the source of its threshold, and the ways it ends. Every rule ends through these, so that a
// finding's fix and cause are kept only when it fired, and "could not run" is worded alike.
struct Rule {
  const char* name;
  const char* source;

  WatchFinding ended(RuleOutcome outcome, std::string evidence, std::string fix = "", std::string cause = "") const;
  // "could not run: WHY"
  WatchFinding not_run(const std::string& why) const;
  // Too few samples could judge it: "could not run: NEEDS in 3 of 20 samples (it needs 5 or more, and most of the
  // timeline)", and where NEEDS are GPM counters, which GPUs and drivers have them.
  WatchFinding too_few(const Tally& t, const std::string& needs, bool gpm_counters = false) const;
  // Judged on its samples: fired when the condition held in most of those that could judge it, else clear.
  WatchFinding judged(const Tally& t, std::string evidence, std::string fix) const;
};

}  // namespace gpubench::watch_detail
