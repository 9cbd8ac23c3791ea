#include "harness/report/verdict_list.hpp"

#include <algorithm>

#include "benchmarks/common/metric_id.hpp"
#include "harness/baseline/gating.hpp"
#include "harness/report/utc_time.hpp"

namespace gpubench {
namespace {

Tally tally_of(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::Failed:
    case VerdictKind::Regression: return Tally::Failed;
    case VerdictKind::Noisy:
    case VerdictKind::Missing:
    case VerdictKind::Informational: return Tally::Skipped;
    case VerdictKind::Improvement:
    case VerdictKind::Pass:
    case VerdictKind::New: return Tally::Passed;
  }
  return Tally::Passed;
}

ListedVerdict listed_stage(const std::string& group, const StageResult& stage, const AcceptanceTiming& timing) {
  std::string reasons;
  for (const std::string& r : stage.reasons) reasons += r + "\n";
  const bool failed = stage.verdict == Grade::Fail;
  const std::string message = stage.reasons.empty() ? (failed ? "failed" : "") : stage.reasons.front();
  const Tally tally = failed ? Tally::Failed : stage.skipped ? Tally::Skipped : Tally::Passed;
  const auto timed = timing.stage_seconds.find(stage.stage);
  return {group, stage.stage, stage.skipped ? "skipped" : to_string(stage.verdict), tally, message, reasons, {},
          timed == timing.stage_seconds.end() ? std::nullopt : std::optional<double>(timed->second)};
}

}  // namespace

int VerdictList::count(Tally tally) const {
  return static_cast<int>(std::count_if(verdicts.begin(), verdicts.end(), [tally](const ListedVerdict& v) { return v.tally == tally; }));
}

VerdictList verdict_list(const CheckReport& report, const RunInfo& run) {
  const std::string suite = "gpubench." + report.host;
  VerdictList list{"gpubench check", suite, report.host, run.started_at, seconds_between(run.started_at, run.finished_at), {}};
  for (const MetricVerdict& v : report.verdicts) {
    const std::string family = MetricId(v.id).family();
    const std::string message = std::string(to_string(v.kind)) + ": " + v.reason;
    std::vector<std::pair<std::string, std::string>> properties;
    if (!v.judged_by.empty()) properties.emplace_back("baseline", v.judged_by);
    if (v.gated_at) properties.emplace_back("gates_at", gates_at_text(*v.gated_at));
    list.verdicts.push_back({suite + "." + family, v.id, to_string(v.kind), tally_of(v.kind), message, message,
                             std::move(properties), std::nullopt});
  }
  if (!report.unjudged_deciding.empty()) {
    std::string detail;
    std::string ids;
    for (const UnjudgedFigure& f : report.unjudged_deciding) {
      detail += f.id + ": " + f.reason + "\n";
      ids += (ids.empty() ? "" : ", ") + f.id;
    }
    const std::string message = std::to_string(report.unjudged_deciding.size()) +
                                " figures that decide acceptance could not be judged (no baseline gates them): " + ids;
    list.verdicts.insert(list.verdicts.begin(), {suite, "every figure that decides acceptance judged", "not judged",
                                                 Tally::Skipped, message, detail, {}, std::nullopt});
  }
  return list;
}

VerdictList verdict_list(const AcceptanceReport& report, const std::string& host, const AcceptanceTiming& timing) {
  const std::string suite = "acceptance." + host;
  VerdictList list{"gpubench acceptance", suite, host, timing.started_at, timing.seconds, {}};
  for (const StageResult& s : report.node_stages) list.verdicts.push_back(listed_stage(suite + ".node", s, timing));
  for (const GpuAcceptance& gpu : report.gpus) {
    for (const StageResult& s : gpu.stages) {
      ListedVerdict listed = listed_stage(suite + ".gpu" + std::to_string(gpu.gpu.index), s, timing);
      listed.properties = {{"pci_bus_id", gpu.gpu.pci_bus_id}, {"uuid", gpu.gpu.uuid}, {"serial", gpu.gpu.serial}};
      list.verdicts.push_back(listed);
    }
  }
  return list;
}

}  // namespace gpubench
