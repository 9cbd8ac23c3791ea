#pragma once
// A GPU's power draw and its enforced power limit, read through NVML (never set), for figures that say what power
// they held.
#include <optional>

#include "benchmarks/common/context.hpp"

namespace gpubench {

// The board's power draw in watts (NVML's reading, which Hopper averages over about a second), or nothing where
// NVML does not tell.
std::optional<double> board_power_watts(const BenchmarkContext& context, const BenchmarkDevice& device);

// The power limit the driver enforces, in watts, or nothing where NVML does not tell.
std::optional<double> enforced_power_limit_watts(const BenchmarkContext& context, const BenchmarkDevice& device);

}  // namespace gpubench
