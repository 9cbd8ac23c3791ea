#include "harness/report/json_report.hpp"

#include <algorithm>
#include <variant>

#include "harness/baseline/machine_kind.hpp"

namespace gpubench {
namespace {

nlohmann::json run_label_json(const RunLabel& label) {
  return {{"path", label.path}, {"run_id", label.run_id}, {"host", label.host}, {"gpus", label.gpus},
          {"started_at", label.started_at}};
}

nlohmann::json cell_json(const ShowCell& cell) {
  if (const auto* text = std::get_if<std::string>(&cell)) return *text;
  if (const auto* count = std::get_if<std::uint64_t>(&cell)) return *count;
  if (const auto* figure = std::get_if<double>(&cell)) return *figure;
  return nullptr;
}

nlohmann::json identity_json(const GpuIdentity& gpu) {
  return {{"index", gpu.index}, {"pci_bus_id", gpu.pci_bus_id}, {"uuid", gpu.uuid}, {"serial", gpu.serial}};
}

}  // namespace

nlohmann::json check_json(const CheckReport& report) {
  nlohmann::json metrics = nlohmann::json::array();
  for (const MetricVerdict& v : report.verdicts) {
    nlohmann::json m{{"id", v.id}, {"verdict", to_string(v.kind)}, {"unit", v.unit}, {"reason", v.reason}};
    if (v.value) m["value"] = *v.value;
    if (v.expected) m["expected"] = *v.expected;
    if (v.value && v.expected) {
      m["change"] = v.change;
      m["noise"] = v.noise;
    }
    if (v.tolerance > 0) m["tolerance"] = v.tolerance;
    if (v.gated_at) {
      m["gates_at"] = v.gated_at->fraction;
      m["gates_at_set_by"] = v.gated_at->set_by_noise ? "noise" : "tolerance";
    }
    if (!v.judged_by.empty()) m["baseline"] = v.judged_by;
    if (!v.method_change.empty()) m["method_change"] = v.method_change;
    if (!v.contention.empty()) m["contention"] = v.contention;
    if (v.first_value) {
      m["first_value"] = *v.first_value;
      m["remeasured_processes"] = v.remeasured_processes;
    }
    metrics.push_back(m);
  }
  nlohmann::json counts = nlohmann::json::object();
  for (VerdictKind k : {VerdictKind::Failed, VerdictKind::Regression, VerdictKind::Noisy, VerdictKind::Missing,
                        VerdictKind::Informational, VerdictKind::Improvement, VerdictKind::Pass, VerdictKind::New}) {
    counts[to_string(k)] = report.count(k);
  }
  nlohmann::json unjudged = nlohmann::json::array();
  for (const UnjudgedFigure& f : report.unjudged_deciding) unjudged.push_back({{"id", f.id}, {"reason", f.reason}});
  nlohmann::json check{{"schema", "gpubench.check/1"},
          {"results", report.results_path},
          {"host", report.host},
          {"baseline", report.baseline_path},
          {"machine_kind", describe(report.kind)},
          {"baseline_made_on_this_node", report.baseline_made_here},
          {"verdict", report.passed() ? "pass" : "fail"},
          {"counts", counts},
          {"all_deciding_judged", report.unjudged_deciding.empty()},
          {"unjudged_deciding", unjudged},
          {"metrics", metrics}};
  if (!report.rules_path.empty()) check["rules"] = report.rules_path;
  return check;
}

nlohmann::json fleet_json(const FleetReport& report) {
  const auto findings_json = [](const std::vector<FleetFinding>& list) {
    nlohmann::json findings = nlohmann::json::array();
    for (const FleetFinding& f : list) {
      findings.push_back({{"scope", f.scope}, {"host", f.host}, {"source", f.source}, {"metric", f.metric},
                          {"value", f.value}, {"reference", f.reference}, {"deviation", f.deviation},
                          {"noise", f.noise}, {"unit", f.unit}, {"reason", f.reason}});
      if (f.gpu) findings.back()["gpu"] = *f.gpu;
    }
    return findings;
  };
  nlohmann::json unjudged = nlohmann::json::array();
  nlohmann::json counts = nlohmann::json::object();
  for (FleetUnjudged why : {FleetUnjudged::HostBound, FleetUnjudged::NotGating, FleetUnjudged::TooFewNodes}) {
    counts[to_string(why)] = report.unjudged_count(why);
  }
  for (const UnjudgedFleetFigure& f : report.unjudged) {
    unjudged.push_back({{"metric", f.metric}, {"because", to_string(f.why)}, {"reason", f.reason},
                        {"decides_acceptance", f.decides_acceptance}});
  }
  return {{"schema", "gpubench.fleet/1"},
          {"nodes", report.nodes},
          {"hosts", report.hosts},
          {"distinct_nodes", report.distinct_nodes},
          {"kind_baseline", report.kind_baseline},
          {"metrics_compared", report.metrics_compared},
          {"outliers", findings_json(report.findings)},
          {"within_noise", findings_json(report.within_noise)},
          {"not_judged_counts", counts},
          {"not_judged", unjudged}};
}

nlohmann::json acceptance_json(const AcceptanceReport& report) {
  const auto stage_json = [](const StageResult& s) {
    return nlohmann::json{{"stage", s.stage}, {"verdict", to_string(s.verdict)}, {"skipped", s.skipped}, {"reasons", s.reasons}};
  };
  nlohmann::json gpus = nlohmann::json::array();
  for (const GpuAcceptance& gpu : report.gpus) {
    nlohmann::json stages = nlohmann::json::array();
    for (const StageResult& s : gpu.stages) stages.push_back(stage_json(s));
    nlohmann::json entry = identity_json(gpu.gpu);
    entry["verdict"] = to_string(gpu.verdict);
    entry["stages"] = stages;
    gpus.push_back(entry);
  }
  nlohmann::json node = nlohmann::json::array();
  for (const StageResult& s : report.node_stages) node.push_back(stage_json(s));
  return {{"schema", "gpubench.acceptance/1"}, {"node_verdict", to_string(report.node_verdict)}, {"baseline", report.baseline},
          {"level", {{"name", report.level}, {"runs", report.level_runs}}},
          {"node", node},                      {"gpus", gpus}};
}

nlohmann::json findings_json(const std::vector<Finding>& findings, const std::vector<GpuIdentity>& identities) {
  nlohmann::json array = nlohmann::json::array();
  for (const Finding& f : findings) {
    nlohmann::json named = nlohmann::json::array();
    for (int index : f.gpus) {
      const auto found = std::find_if(identities.begin(), identities.end(), [index](const GpuIdentity& gpu) { return gpu.index == index; });
      named.push_back(found != identities.end() ? identity_json(*found) : identity_json({index, "", "", ""}));
    }
    array.push_back({{"severity", severity_name(f.severity)}, {"check", f.check}, {"gpus", f.gpus}, {"gpu_identities", named},
                     {"finding", f.finding}, {"fix", f.fix}});
  }
  return array;
}

nlohmann::json comparison_json(const Comparison& comparison) {
  nlohmann::json runs = nlohmann::json::array();
  for (const ComparedRun& run : comparison.runs) {
    nlohmann::json described = run_label_json(run.label);
    described["key"] = run.key;
    runs.push_back(described);
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const ComparisonRow& row : comparison.rows) {
    nlohmann::json against_first = nlohmann::json::array();
    for (std::size_t r = 0; r < row.against_first.size(); ++r) {
      const Difference& d = row.against_first[r];
      against_first.push_back({{"run", comparison.runs[r + 1].key},
                               {"direction", to_string(d.direction)},
                               {"noise", to_string(d.noise)},
                               {"p_value", d.p_value ? nlohmann::json(*d.p_value) : nullptr},
                               {"repetitions", {d.first_repetitions, d.repetitions}}});
    }
    rows.push_back({{"metric", row.metric},
                    {"unit", row.unit},
                    {"better", to_string(row.better)},
                    {"values", row.values},
                    {"ratios", row.ratios},
                    {"against_first", against_first}});
  }
  return {{"schema", "gpubench.compare/1"},
          {"runs", runs},
          {"rows", rows},
          {"not_shared", comparison.not_shared},
          {"noise_test",
           {{"test", "two-sided Mann-Whitney U"},
            {"alpha", kNoiseAlpha},
            {"fewest_repetitions", kFewestRepetitionsToTest}}}};
}

nlohmann::json show_json(const ShowReport& report) {
  nlohmann::json tables = nlohmann::json::array();
  for (const ShowTable& table : report.tables) {
    nlohmann::json columns = nlohmann::json::array();
    for (const ShowColumn& column : table.columns) {
      columns.push_back({{"name", column.name}, {"unit", column.unit}, {"group", column.group}});
    }
    nlohmann::json rows = nlohmann::json::array();
    for (const std::vector<ShowCell>& row : table.rows) {
      nlohmann::json cells = nlohmann::json::array();
      for (const ShowCell& cell : row) cells.push_back(cell_json(cell));
      rows.push_back(std::move(cells));
    }
    tables.push_back({{"kind", to_string(table.kind)},
                      {"title", table.title},
                      {"unit", table.unit},
                      {"columns", columns},
                      {"rows", rows}});
  }
  return {{"schema", "gpubench.show/1"}, {"run", run_label_json(report.run)}, {"remeasured", report.remeasured},
          {"tables", tables}};
}

}  // namespace gpubench
