#pragma once
// The part of a job that tells how it runs: not its imports and model building, before the GPU first worked, nor
// its end, after the GPU last worked; and for a job whose GPU is busy in its steady state, not the warm-up before
// the GPU first reached half its usual activity either (a first compile, cuDNN's choice of kernels, the first
// batches). The rules judge this part, and the diagnosis says what was left out.
#include <cstddef>
#include <string>

#include "harness/watch/watch_timeline.hpp"

namespace gpubench {

struct SteadyPart {
  std::size_t first = 0;  // the samples [first, last) of the GPU's timeline
  std::size_t last = 0;
  double from_s = 0;  // the first and last of those samples' times
  double to_s = 0;
  double left_out_s = 0;  // seconds of the timeline outside them
  std::string why;        // what was left out and why; empty when nothing was
};

// `gpm`: whether the GPU's SM activity is read (else NVML's utilisation stands for it).
SteadyPart steady_part(const GpuTimeline& gpu, bool gpm);

}  // namespace gpubench
