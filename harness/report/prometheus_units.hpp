#pragma once
// Which Prometheus metric family a gpubench figure goes to, by its unit. Prometheus wants one family per
// quantity, in base units, the unit as the name's suffix (bytes_per_second, seconds, ratio): a figure's value
// times `to_base` is in the family's unit. docs/reports.md lists them.
#include <optional>
#include <string>

namespace gpubench {

struct PrometheusUnit {
  std::string family;  // the metric name after "gpubench_": "bandwidth_bytes_per_second"
  double to_base = 1;  // GB/s -> bytes per second: 1e9
  std::string help;    // what the family holds, for its HELP line
};

// The family of every unit gpubench-micro, gpubench-mpi and stress write; nullopt for any other unit, whose
// figures the report keeps as they are, in a family that names the unit in a label.
std::optional<PrometheusUnit> prometheus_unit(const std::string& unit);

}  // namespace gpubench
