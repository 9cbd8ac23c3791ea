#include "harness/acceptance/acceptance_verdict.hpp"

#include <map>

#include "benchmarks/common/metric_id.hpp"
#include "harness/verdict/fleet.hpp"

namespace gpubench {
namespace {

void worsen(StageResult& stage, Grade grade, std::string reason) {
  stage.verdict = worst_of({stage.verdict, grade});
  stage.reasons.push_back(std::move(reason));
}

Grade worst_stage(const std::vector<StageResult>& stages) {
  std::vector<Grade> grades;
  for (const StageResult& s : stages) grades.push_back(s.verdict);
  return worst_of(grades);
}

}  // namespace

AcceptanceReport judge_acceptance(const AcceptanceEvidence& evidence) {
  AcceptanceReport report;
  std::map<int, std::map<std::string, StageResult>> per_gpu;
  for (const GpuIdentity& gpu : evidence.gpus) {
    for (const char* stage : {"doctor", "performance", "stress"}) per_gpu[gpu.index][stage] = {stage, Grade::Pass, {}};
  }
  std::map<std::string, StageResult> node = {{"doctor", {"doctor", Grade::Pass, {}}}, {"performance", {"performance", Grade::Pass, {}}}};

  for (const Finding& f : evidence.doctor) {
    const Grade verdict = grade_of(f.severity);
    if (verdict == Grade::Pass) continue;
    const std::string reason = f.check + ": " + f.finding + (f.fix.empty() ? "" : " (fix: " + f.fix + ")");
    if (f.gpus.empty()) {
      worsen(node["doctor"], verdict, reason);
    } else {
      for (int g : f.gpus) {
        if (per_gpu.count(g)) worsen(per_gpu[g]["doctor"], verdict, reason);
      }
    }
  }
  if (evidence.check) {
    report.baseline = evidence.check->baseline_path;
    for (const MetricVerdict& v : evidence.check->verdicts) {
      const Grade verdict = grade_of(v.kind);
      if (verdict == Grade::Pass) continue;
      const std::string reason = std::string(to_string(v.kind)) + " " + v.id + ": " + v.reason;
      const auto gpu = MetricId(v.id).gpu();
      if (gpu && per_gpu.count(*gpu)) {
        worsen(per_gpu[*gpu]["performance"], verdict, reason);
      } else {
        worsen(node["performance"], verdict, reason);
      }
    }
  } else {
    // Without a baseline no figure was judged: no GPU may read as a performance pass.
    report.baseline = evidence.baseline_note;
    worsen(node["performance"], Grade::Warn, "not judged: " + evidence.baseline_note);
    for (auto& [index, stages] : per_gpu) worsen(stages["performance"], Grade::Warn, "not judged: no baseline (see the node's verdict)");
  }
  for (const GpuStressVerdict& v : evidence.stress) {
    if (!per_gpu.count(v.index)) continue;
    for (const StressFinding& f : v.findings) {
      const Grade verdict = grade_of_stress_finding(f);
      if (verdict != Grade::Pass) worsen(per_gpu[v.index]["stress"], verdict, f.check + ": " + f.message);
    }
  }
  for (const GpuIdentity& identity : evidence.gpus) {
    std::map<std::string, StageResult>& stages = per_gpu[identity.index];
    GpuAcceptance gpu{identity, Grade::Pass, {stages["doctor"], stages["performance"], stages["stress"]}};
    gpu.verdict = worst_stage(gpu.stages);
    report.gpus.push_back(gpu);
  }
  report.node_stages = {node["doctor"], node["performance"]};
  report.node_verdict = worst_stage(report.node_stages);
  for (const GpuAcceptance& gpu : report.gpus) report.node_verdict = worst_of({report.node_verdict, gpu.verdict});
  return report;
}

}  // namespace gpubench
