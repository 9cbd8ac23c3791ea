#include "harness/verdict/link_cause.hpp"

#include <array>
#include <cmath>
#include <utility>

#include "harness/verdict/narrowed_link.hpp"

namespace gpubench {
namespace {

// The second segment of a PCIe copy's id, each way and its other way.
constexpr std::array<std::pair<const char*, const char*>, 6> kOtherWays = {{
    {"h2d", "d2h"},
    {"d2h", "h2d"},
    {"bidirectional_h2d", "bidirectional_d2h"},
    {"bidirectional_d2h", "bidirectional_h2d"},
    {"host_to_all", "all_to_host"},
    {"all_to_host", "host_to_all"},
}};

}  // namespace

std::string other_way(const std::string& metric_id) {
  const std::string family = "pcie/";
  if (metric_id.rfind(family, 0) != 0) return "";
  const std::size_t end = metric_id.find('/', family.size());
  if (end == std::string::npos) return "";
  const std::string way = metric_id.substr(family.size(), end - family.size());
  for (const auto& [one, other] : kOtherWays) {
    if (way == one) return family + other + metric_id.substr(end);
  }
  return "";
}

std::string link_cause(const ResultsDocument& results, const std::vector<MetricVerdict>& verdicts,
                       const MetricVerdict& verdict) {
  if (!verdict.worse) return "";
  const std::string narrowed = narrowed_link(results.environment, verdict.id);
  if (!narrowed.empty()) return narrowed;
  if (verdict.kind != VerdictKind::Regression && verdict.kind != VerdictKind::Noisy) return "";
  const std::string other = other_way(verdict.id);
  if (other.empty() || !recorded_at_full_width(results.environment, verdict.id)) return "";
  for (const MetricVerdict& v : verdicts) {
    if (v.id != other) continue;
    // Held: measured against an expectation, and not worse by more than its nominal tolerance. A figure that does
    // not gate (its runs spread too wide to judge a small change) still says how this run's copies went that way.
    const bool measured = v.value.has_value() && v.expected.has_value() && v.kind != VerdictKind::Failed;
    if (!measured || (v.worse && std::fabs(v.change) > v.tolerance)) return "";
    return "the other way (" + other + ") held at " + signed_percent(v.change) +
           " on a link at its full width: a narrower or slower link slows both ways, so look first at what only "
           "this way crosses, the host's side (its memory, another tenant's traffic on a shared host) or errors "
           "one way on the link (gpubench doctor counts replays), then the GPU";
  }
  return "";
}

void add_link_causes(std::vector<MetricVerdict>& verdicts, const ResultsDocument& results) {
  std::vector<std::string> causes;
  for (const MetricVerdict& v : verdicts) causes.push_back(link_cause(results, verdicts, v));
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    if (!causes[i].empty()) verdicts[i].reason += "; " + causes[i];
  }
}

}  // namespace gpubench
