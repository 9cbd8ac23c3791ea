#pragma once
// How far a figure may move before it counts as a change: its family's tolerances in the catalogue
// (benchmarks/catalogue.hpp). Bandwidths of large transfers are steady; launch latencies and small transfers are
// not. A baseline file may override any of these.
#include <string>

namespace gpubench {

// Relative tolerance (0.05 = 5 %) for a metric id and unit.
double default_tolerance(const std::string& metric_id, const std::string& unit);

}  // namespace gpubench
