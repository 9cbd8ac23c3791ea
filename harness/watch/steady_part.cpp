#include "harness/watch/steady_part.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

#include "harness/watch/gpu_activity.hpp"

namespace gpubench {
namespace {

// Any work at all: NVML's utilisation is a whole percent, so 1 % is its least; GPM's SM activity is finer, and reads
// exactly 0 on an idle GPU, so a thousandth is work (one block on one SM of 132 for a tenth of the interval).
constexpr double kSomeUtilization = 0.01;
constexpr double kSomeSmActivity = 0.001;

// How busy the GPU was: kernels (SM activity, or utilisation without GPM) or anything at all (utilisation counts
// copies), whichever is more.
std::optional<double> busy(const GpuSample& s, bool gpm) {
  std::optional<double> out = sm_activity(s, gpm);
  if (s.utilization) out = std::max(out.value_or(0.0), *s.utilization);
  return out;
}

bool worked(const GpuSample& s) {
  return (s.utilization && *s.utilization >= kSomeUtilization) || (s.sm_active && *s.sm_active >= kSomeSmActivity);
}

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f s", s);
  return text;
}

}  // namespace

SteadyPart steady_part(const GpuTimeline& gpu, bool gpm) {
  const std::vector<GpuSample>& samples = gpu.samples;
  SteadyPart part;
  part.last = samples.size();
  if (samples.empty()) return part;
  std::size_t first = 0, last = samples.size();
  while (first < last && !worked(samples[first])) ++first;
  while (last > first && !worked(samples[last - 1])) --last;
  std::vector<std::string> why;
  if (first == last) {
    first = 0;
    last = samples.size();
  } else {
    if (first > 0) why.push_back(seconds(samples[first].t_s - samples[0].t_s) + " before the GPU first worked");
    if (last < samples.size()) why.push_back(seconds(samples.back().t_s - samples[last - 1].t_s) + " after it last did");
    // A GPU busy in its steady state: the stretches before it first reached, and after it last kept, half of its
    // median activity are warm-up and wind-down. A GPU idle in its steady state has none: its idle stretches are
    // what the diagnosis is about.
    std::vector<double> levels;
    for (std::size_t i = first; i < last; ++i) {
      if (const auto b = busy(samples[i], gpm)) levels.push_back(*b);
    }
    if (!levels.empty()) {
      std::nth_element(levels.begin(), levels.begin() + levels.size() / 2, levels.end());
      const double level = levels[levels.size() / 2];
      if (!activity_low(level, gpm)) {
        const auto below_half = [&](std::size_t i) {
          const auto b = busy(samples[i], gpm);
          return b && *b < level / 2;
        };
        std::size_t warm = first, wind = last;
        while (warm < wind && below_half(warm)) ++warm;
        while (wind > warm && below_half(wind - 1)) --wind;
        if (warm > first) {
          why.push_back(seconds(samples[warm].t_s - samples[first].t_s) + " of warm-up before it reached half its "
                        "steady activity");
        }
        if (wind < last) why.push_back(seconds(samples[last - 1].t_s - samples[wind - 1].t_s) + " of wind-down");
        first = warm;
        last = wind;
      }
    }
  }
  part.first = first;
  part.last = last;
  part.from_s = samples[first].t_s;
  part.to_s = samples[last - 1].t_s;
  part.left_out_s = (samples.back().t_s - samples.front().t_s) - (part.to_s - part.from_s);
  for (std::size_t i = 0; i < why.size(); ++i) part.why += (i == 0 ? "" : ", ") + why[i];
  return part;
}

}  // namespace gpubench
