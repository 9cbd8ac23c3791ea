#include "harness/report/verdict_list.hpp"

#include <algorithm>

#include "benchmarks/common/metric_id.hpp"

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

ListedVerdict listed_stage(const std::string& scope, const StageResult& stage) {
  std::string reasons;
  for (const std::string& r : stage.reasons) reasons += r + "\n";
  const bool failed = stage.verdict == Grade::Fail;
  const std::string message = stage.reasons.empty() ? (failed ? "failed" : "") : stage.reasons.front();
  const Tally tally = failed ? Tally::Failed : stage.skipped ? Tally::Skipped : Tally::Passed;
  return {"acceptance." + scope, stage.stage, stage.skipped ? "skipped" : to_string(stage.verdict), tally, message, reasons, {}};
}

}  // namespace

int VerdictList::count(Tally tally) const {
  return static_cast<int>(std::count_if(verdicts.begin(), verdicts.end(), [tally](const ListedVerdict& v) { return v.tally == tally; }));
}

VerdictList verdict_list(const CheckReport& report) {
  VerdictList list{"gpubench check", "gpubench." + report.host, {}};
  for (const MetricVerdict& v : report.verdicts) {
    const std::string family = MetricId(v.id).family();
    const std::string message = std::string(to_string(v.kind)) + ": " + v.reason;
    list.verdicts.push_back({"gpubench." + family, v.id, to_string(v.kind), tally_of(v.kind), message, message, {}});
  }
  return list;
}

VerdictList verdict_list(const AcceptanceReport& report) {
  VerdictList list{"gpubench acceptance", "acceptance", {}};
  for (const StageResult& s : report.node_stages) list.verdicts.push_back(listed_stage("node", s));
  for (const GpuAcceptance& gpu : report.gpus) {
    for (const StageResult& s : gpu.stages) {
      ListedVerdict listed = listed_stage("gpu" + std::to_string(gpu.gpu.index), s);
      listed.properties = {{"pci_bus_id", gpu.gpu.pci_bus_id}, {"uuid", gpu.gpu.uuid}, {"serial", gpu.gpu.serial}};
      list.verdicts.push_back(listed);
    }
  }
  return list;
}

}  // namespace gpubench
