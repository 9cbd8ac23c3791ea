#pragma once
// What `gpubench stress` shows: on a terminal a live line per GPU (progress, TFLOP/s, temperature, power,
// clock, errors) redrawn in place; at the end a summary table with each GPU's verdict and findings.
#include <ostream>
#include <vector>

#include "harness/stress/stress_rules.hpp"

namespace gpubench {

// Draws one line per GPU; on a terminal the previous block is overwritten (`lines_drawn` carries how many
// lines the last call printed; start at 0).
void draw_stress_progress(std::ostream& out, double elapsed_s, double duration_s, const std::vector<GpuStressRecord>& gpus,
                          bool terminal, int& lines_drawn);

void print_stress_summary(std::ostream& out, const std::vector<GpuStressRecord>& gpus,
                          const std::vector<GpuStressVerdict>& verdicts);

}  // namespace gpubench
