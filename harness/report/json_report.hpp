#pragma once
// JSON, for scripts: one document per command, each in the schema its users already read. Serves `check`
// (gpubench.check/1), `check --fleet`, `acceptance --json` (gpubench.acceptance/1), `doctor --json` and
// `compare --json` and `show --format json` (gpubench.show/1).
#include <nlohmann/json.hpp>

#include <vector>

#include "harness/acceptance/acceptance_verdict.hpp"
#include "harness/doctor/finding.hpp"
#include "harness/doctor/gpu_identity.hpp"
#include "harness/report/comparison.hpp"
#include "harness/report/show_tables.hpp"
#include "harness/verdict/fleet.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

nlohmann::json check_json(const CheckReport& report);
// {"nodes", "metrics_compared", "outliers"}: one object per finding, "gpu" only when it is about one GPU.
nlohmann::json fleet_json(const FleetReport& report);
nlohmann::json acceptance_json(const AcceptanceReport& report);
// An array of {"severity", "check", "gpus", "gpu_identities", "finding", "fix"}; "gpus" (CUDA indexes) is empty
// for node-wide findings, and "gpu_identities" names each of them: {"index", "pci_bus_id", "uuid", "serial"}.
nlohmann::json findings_json(const std::vector<Finding>& findings, const std::vector<GpuIdentity>& identities);
nlohmann::json comparison_json(const Comparison& comparison);
// {"schema": "gpubench.show/1", "run", "tables"}: each table's kind, title, unit, columns and rows, a cell null where
// nothing was measured (docs/reports.md).
nlohmann::json show_json(const ShowReport& report);

}  // namespace gpubench
