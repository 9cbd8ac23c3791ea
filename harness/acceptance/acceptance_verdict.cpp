#include "harness/acceptance/acceptance_verdict.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "benchmarks/common/metric_id.hpp"
#include "harness/verdict/contention.hpp"
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

std::string dcgm_reason(const DcgmResult& result) {
  std::string reason = result.category + "/" + result.test + ": " + result.status;
  for (const std::string& message : result.messages) reason += "; " + message;
  return reason;
}

// Each failed or warned test counts against the GPUs it names, or against the node when it names none (or one
// that is not among the GPUs tested). DCGM's JSON says nothing per GPU for a test that passed.
void judge_dcgm(const DcgmEvidence& dcgm, std::map<int, std::map<std::string, StageResult>>& per_gpu, StageResult& node) {
  if (!dcgm.skipped_because.empty()) {
    node.skipped = true;
    node.reasons.push_back("skipped: " + dcgm.skipped_because);
    return;
  }
  if (!dcgm.no_result.empty()) return worsen(node, Grade::Warn, "not judged: " + dcgm.no_result);
  if (!dcgm.report.runtime_error.empty()) return worsen(node, Grade::Warn, "DCGM could not run the diagnostic: " + dcgm.report.runtime_error);
  if (dcgm.report.results.empty()) return worsen(node, Grade::Warn, "not judged: DCGM reported no test");
  for (auto& [index, stages] : per_gpu) stages["dcgm"] = {"dcgm", Grade::Pass, {}};
  for (const DcgmResult& result : dcgm.report.results) {
    const Grade grade = grade_of_dcgm_status(result.status);
    if (grade == Grade::Pass) continue;
    bool on_a_gpu = false;
    for (int id : result.gpus) {
      const auto cuda = dcgm.cuda_index.find(id);
      if (cuda == dcgm.cuda_index.end() || per_gpu.count(cuda->second) == 0) continue;
      worsen(per_gpu[cuda->second]["dcgm"], grade, dcgm_reason(result));
      on_a_gpu = true;
    }
    if (!on_a_gpu) {
      std::string gpus;
      for (int id : result.gpus) gpus += (gpus.empty() ? " (DCGM GPU " : ", ") + std::to_string(id);
      worsen(node, grade, dcgm_reason(result) + (gpus.empty() ? "" : gpus + ", not among the GPUs tested)"));
    }
  }
}

// What a stress load measured that a reader of the verdict wants to see even when it passed: the power reached,
// each pulse period's bursts, the traffic over the links.
bool is_stress_measurement(const StressFinding& f) {
  return f.check == "power.target_reached" || f.check == "pulse.period" || f.check == "interconnect.traffic" ||
         f.check == "interconnect.p2p_skipped";
}

const std::vector<std::string> kStageOrder = {"doctor", "performance", "stress", "dcgm"};

std::ptrdiff_t stage_position(const std::string& stage) {
  return std::find(kStageOrder.begin(), kStageOrder.end(), stage) - kStageOrder.begin();
}

// The stage acceptance stopped at fails the node; the stages after it did not run, on the node nor on any GPU, and
// the GPUs' part of the stopped stage is unfinished.
void apply_stop(const StageStop& stopped, std::map<std::string, StageResult>& node,
                std::vector<std::string>& node_order, std::map<int, std::map<std::string, StageResult>>& per_gpu) {
  const std::string not_run = "not run: acceptance stopped at the " + stopped.stage + " stage (" + stopped.reason + ")";
  StageResult& at = node[stopped.stage];
  at.stage = stopped.stage;
  if (at.verdict != Grade::Fail) worsen(at, Grade::Fail, stopped.reason);
  for (const std::string& stage : kStageOrder) {
    if (stage_position(stage) < stage_position(stopped.stage) || (stage == "dcgm" && node.count("dcgm") == 0)) continue;
    if (std::find(node_order.begin(), node_order.end(), stage) == node_order.end()) node_order.push_back(stage);
    if (stage != stopped.stage) node[stage] = {stage, Grade::Warn, {not_run}, true};
    for (auto& [index, stages] : per_gpu) {
      if (stages.count(stage) == 0) continue;
      if (stage == stopped.stage) {
        worsen(stages[stage], Grade::Warn, "did not finish (see the node's verdict)");
      } else {
        stages[stage] = {stage, Grade::Warn, {"not run (see the node's verdict)"}, true};
      }
    }
  }
}

}  // namespace

AcceptanceReport judge_acceptance(const AcceptanceEvidence& evidence) {
  AcceptanceReport report;
  report.level = evidence.level;
  report.level_runs = evidence.level_runs;
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
  const auto ran_in_full = [&evidence](const std::string& stage) {
    return !evidence.stopped || stage_position(stage) < stage_position(evidence.stopped->stage);
  };
  if (!ran_in_full("performance")) {
    report.baseline = "none chosen: acceptance stopped at the " + evidence.stopped->stage + " stage";
  } else if (evidence.check) {
    report.baseline = evidence.check->baseline_path;
    std::set<std::string> not_idle;
    for (const MetricVerdict& v : evidence.check->verdicts) {
      if (!v.contention.empty()) not_idle.insert(v.contention);
    }
    // Another process on a GPU is a finding of its own, whatever the figures: they were measured sharing the GPU.
    for (const std::string& what : not_idle) {
      worsen(node["performance"], Grade::Warn,
             "the node was not idle: " + what + " (figures measured sharing a GPU read low; accept it when idle)");
    }
    for (const MetricVerdict& v : evidence.check->verdicts) {
      const Grade verdict = grade_of(v.kind);
      if (verdict == Grade::Pass) continue;
      const std::string reason = verdict_text(v) + " " + v.id + ": " + v.reason;
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
  for (const GpuStressVerdict& v : evidence.stress) {  // also when stress was stopped: what it found stands
    if (!per_gpu.count(v.index)) continue;
    const std::string load = v.mode == StressMode::Sustained ? "" : std::string(stress_mode_name(v.mode)) + " load: ";
    for (const StressFinding& f : v.findings) {
      const Grade verdict = grade_of_stress_finding(f);
      if (verdict != Grade::Pass || is_stress_measurement(f)) worsen(per_gpu[v.index]["stress"], verdict, load + f.check + ": " + f.message);
    }
  }
  const std::vector<std::string> stage_order = {"doctor", "performance", "stress"};
  std::vector<std::string> node_stage_order = {"doctor", "performance"};
  if (evidence.dcgm) {
    node["dcgm"] = {"dcgm", Grade::Pass, {}};
    if (ran_in_full("dcgm")) judge_dcgm(*evidence.dcgm, per_gpu, node["dcgm"]);
    node_stage_order.push_back("dcgm");
  }
  if (evidence.stopped) apply_stop(*evidence.stopped, node, node_stage_order, per_gpu);
  std::sort(node_stage_order.begin(), node_stage_order.end(),
            [](const std::string& a, const std::string& b) { return stage_position(a) < stage_position(b); });
  for (const GpuIdentity& identity : evidence.gpus) {
    std::map<std::string, StageResult>& stages = per_gpu[identity.index];
    GpuAcceptance gpu{identity, Grade::Pass, {}};
    for (const std::string& name : stage_order) gpu.stages.push_back(stages[name]);
    if (stages.count("dcgm")) gpu.stages.push_back(stages["dcgm"]);
    gpu.verdict = worst_stage(gpu.stages);
    report.gpus.push_back(gpu);
  }
  for (const std::string& name : node_stage_order) report.node_stages.push_back(node[name]);
  report.node_verdict = worst_stage(report.node_stages);
  for (const GpuAcceptance& gpu : report.gpus) report.node_verdict = worst_of({report.node_verdict, gpu.verdict});
  return report;
}

}  // namespace gpubench
