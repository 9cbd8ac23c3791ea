#pragma once
// What every diagnosis rule uses (diagnosis_rules.cpp, starved_gpu_rule.cpp): counting the samples that can judge a
// condition and those where it held, medians, the host sample beside a GPU sample, and the text of a finding.
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

WatchFinding finding(const char* rule, RuleOutcome outcome, std::string evidence, std::string fix, const char* source,
                     std::string cause = "");
// "could not run: NEEDS in 3 of 20 samples (it needs 5 or more, and most of the timeline)"
std::string too_little(const Tally& t, const std::string& needs);

}  // namespace gpubench::watch_detail
