#include "harness/stress/clock_collapse_rules.hpp"

#include <cstdio>

#include "harness/results/statistics.hpp"

namespace gpubench {

void judge_clock_collapse(const GpuStressRecord& gpu, const StressLimits& limits, std::vector<StressFinding>& findings) {
  std::vector<StressSample> steady;
  std::vector<double> clocks;
  for (const StressSample& s : steady_samples(gpu.telemetry, limits)) {
    if (s.sm_clock_mhz < 0) continue;
    steady.push_back(s);
    clocks.push_back(s.sm_clock_mhz);
  }
  if (clocks.size() < 3) return;
  const double typical = median(clocks);
  const StressSample* lowest = nullptr;
  int collapsed = 0;
  for (const StressSample& s : steady) {
    if (s.sm_clock_mhz >= limits.collapse * typical) continue;
    ++collapsed;
    if (lowest == nullptr || s.sm_clock_mhz < lowest->sm_clock_mhz) lowest = &s;
  }
  if (lowest == nullptr) return;
  char text[256];
  std::snprintf(text, sizeof text, "the SM clock fell under %.0f %% of its steady %.0f MHz while loaded in %d of %zu readings, "
                "to %.0f MHz at %.0f s", 100 * limits.collapse, typical, collapsed, clocks.size(), lowest->sm_clock_mhz, lowest->t);
  findings.push_back({"clock.collapse", "fail", text});
}

}  // namespace gpubench
