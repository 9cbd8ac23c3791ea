#pragma once
// The loads `gpubench stress` can hold a GPU under, one per run:
//   sustained  verified BF16 GEMM windows with a memory test over all free memory between them (burn-in)
//   power      verified BF16 GEMM only, tuned in the warm-up until the GPU draws its enforced power limit, as
//              DCGM's targeted_power does; judged on whether it reached that limit
//   pulse      full load and idle alternating at 10 ms, 100 ms and 1 s periods (50 % duty), as DCGM's pulse
//              test does, to stress power delivery; each burst timed to find clocks that collapse under it
#include <optional>
#include <string>
#include <vector>

namespace gpubench {

enum class StressMode { Sustained, Power, Pulse };

const char* stress_mode_name(StressMode mode);
std::optional<StressMode> parse_stress_mode(const std::string& name);
std::vector<std::string> stress_mode_names();

// The pulse load's periods, shortest first; each gets an equal share of the run after a warm-up at full load.
inline const std::vector<double> kPulsePeriodsMs = {10, 100, 1000};

}  // namespace gpubench
