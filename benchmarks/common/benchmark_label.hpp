#pragma once
// The contract between gpubench-micro and the harness. Each Google Benchmark run reports one figure:
//   counters  value (the figure), peak (theoretical peak in the same unit, when defined),
//             sm_clock_mhz and clock_event_reasons (NVML, read as the repetition ends)
//   label     "figure=bandwidth;unit=GB/s;better=higher;device=0;..." — what the value means, plus
//             free-form parameters (launch configuration, bytes, ...) kept with the metric.
// A run that measured nothing (skipped or failed) has an outcome label instead: benchmarks/common/run_outcome.hpp.
#include <map>
#include <optional>
#include <string>

namespace gpubench {

enum class Better { Higher, Lower };

struct FigureLabel {
  std::string figure;  // last component of the metric id: bandwidth, time, tflops, ...
  std::string unit;    // GB/s, us, TFLOP/s, ...
  Better better = Better::Higher;
  std::optional<int> device;                 // CUDA device index, when the figure belongs to one GPU
  std::map<std::string, std::string> params;  // anything else worth keeping
};

std::string encode_label(const FigureLabel& label);
// Throws std::invalid_argument naming the missing or malformed key.
FigureLabel decode_label(const std::string& text);

const char* to_string(Better better);
std::optional<Better> parse_better(const std::string& text);

}  // namespace gpubench
