#pragma once
// The Prometheus text format, for node_exporter's textfile collector: whether the run passed, and the value,
// the expected value and a verdict gauge per metric. Serves `check --prometheus`.
#include <ostream>

#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

void write_check_prometheus(const CheckReport& report, std::ostream& out);

}  // namespace gpubench
