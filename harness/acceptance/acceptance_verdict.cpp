#include "harness/acceptance/acceptance_verdict.hpp"

#include <map>

#include "harness/report/xml_text.hpp"
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

AcceptanceReport judge_acceptance(const std::vector<int>& devices, const std::vector<Finding>& doctor,
                                  const std::optional<CheckReport>& check, const std::string& baseline_note,
                                  const std::vector<GpuStressVerdict>& stress) {
  AcceptanceReport report;
  std::map<int, std::map<std::string, StageResult>> per_gpu;
  for (int d : devices) {
    for (const char* stage : {"doctor", "performance", "stress"}) per_gpu[d][stage] = {stage, Grade::Pass, {}};
  }
  std::map<std::string, StageResult> node = {{"doctor", {"doctor", Grade::Pass, {}}}, {"performance", {"performance", Grade::Pass, {}}}};

  for (const Finding& f : doctor) {
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
  if (check) {
    report.baseline = check->baseline_path;
    for (const MetricVerdict& v : check->verdicts) {
      const Grade verdict = grade_of(v.kind);
      if (verdict == Grade::Pass) continue;
      const std::string reason = std::string(to_string(v.kind)) + " " + v.id + ": " + v.reason;
      const auto gpu = split_gpu(v.id).second;
      if (gpu && per_gpu.count(*gpu)) {
        worsen(per_gpu[*gpu]["performance"], verdict, reason);
      } else {
        worsen(node["performance"], verdict, reason);
      }
    }
  } else {
    // Without a baseline no figure was judged: no GPU may read as a performance pass.
    report.baseline = baseline_note;
    worsen(node["performance"], Grade::Warn, "not judged: " + baseline_note);
    for (auto& [index, stages] : per_gpu) worsen(stages["performance"], Grade::Warn, "not judged: no baseline (see the node's verdict)");
  }
  for (const GpuStressVerdict& v : stress) {
    if (!per_gpu.count(v.index)) continue;
    for (const StressFinding& f : v.findings) {
      const Grade verdict = grade_of_stress_finding(f);
      if (verdict != Grade::Pass) worsen(per_gpu[v.index]["stress"], verdict, f.check + ": " + f.message);
    }
  }
  for (auto& [index, stages] : per_gpu) {
    GpuAcceptance gpu{index, Grade::Pass, {stages["doctor"], stages["performance"], stages["stress"]}};
    gpu.verdict = worst_stage(gpu.stages);
    report.gpus.push_back(gpu);
  }
  report.node_stages = {node["doctor"], node["performance"]};
  report.node_verdict = worst_stage(report.node_stages);
  for (const GpuAcceptance& gpu : report.gpus) report.node_verdict = worst_of({report.node_verdict, gpu.verdict});
  return report;
}


nlohmann::json acceptance_json(const AcceptanceReport& report) {
  const auto stage_json = [](const StageResult& s) {
    return nlohmann::json{{"stage", s.stage}, {"verdict", to_string(s.verdict)}, {"reasons", s.reasons}};
  };
  nlohmann::json gpus = nlohmann::json::array();
  for (const GpuAcceptance& gpu : report.gpus) {
    nlohmann::json stages = nlohmann::json::array();
    for (const StageResult& s : gpu.stages) stages.push_back(stage_json(s));
    gpus.push_back({{"index", gpu.index}, {"verdict", to_string(gpu.verdict)}, {"stages", stages}});
  }
  nlohmann::json node = nlohmann::json::array();
  for (const StageResult& s : report.node_stages) node.push_back(stage_json(s));
  return {{"schema", "gpubench.acceptance/1"}, {"node_verdict", to_string(report.node_verdict)}, {"baseline", report.baseline},
          {"node", node},                      {"gpus", gpus}};
}

void write_acceptance_junit(const AcceptanceReport& report, std::ostream& out) {
  std::vector<std::pair<std::string, StageResult>> cases;
  for (const StageResult& s : report.node_stages) cases.emplace_back("node", s);
  for (const GpuAcceptance& gpu : report.gpus) {
    for (const StageResult& s : gpu.stages) cases.emplace_back("gpu" + std::to_string(gpu.index), s);
  }
  int failures = 0;
  for (const auto& c : cases) failures += c.second.verdict == Grade::Fail;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"gpubench acceptance\" tests=\"" << cases.size()
      << "\" failures=\"" << failures << "\">\n  <testsuite name=\"acceptance\" tests=\"" << cases.size() << "\" failures=\""
      << failures << "\" errors=\"0\">\n";
  for (const auto& [scope, s] : cases) {
    std::string reasons;
    for (const std::string& r : s.reasons) reasons += r + "\n";
    out << "    <testcase classname=\"acceptance." << scope << "\" name=\"" << s.stage << "\" time=\"0\">";
    if (s.verdict == Grade::Fail) {
      out << "<failure message=\"" << xml_escape(s.reasons.empty() ? "failed" : s.reasons.front()) << "\">" << xml_escape(reasons)
          << "</failure>";
    } else if (!reasons.empty()) {
      out << "<system-out>" << xml_escape(reasons) << "</system-out>";
    }
    out << "</testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

void print_acceptance(const AcceptanceReport& report, std::ostream& out) {
  const auto print_stage = [&out](const std::string& scope, const StageResult& s) {
    out << "  " << scope << "  " << s.stage << ": " << to_string(s.verdict) << "\n";
    for (const std::string& r : s.reasons) out << "      " << r << "\n";
  };
  out << "\nAcceptance\n";
  for (const StageResult& s : report.node_stages) print_stage("node", s);
  for (const GpuAcceptance& gpu : report.gpus) {
    for (const StageResult& s : gpu.stages) print_stage("GPU " + std::to_string(gpu.index), s);
    out << "  GPU " << gpu.index << " verdict: " << to_string(gpu.verdict) << "\n";
  }
  out << "baseline: " << report.baseline << "\nnode verdict: " << to_string(report.node_verdict)
      << (report.node_verdict == Grade::Fail ? " (do not put this node into service)" : "") << "\n";
}

}  // namespace gpubench
