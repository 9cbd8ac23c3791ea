#include "harness/stress/stress_mode.hpp"

namespace gpubench {

const char* stress_mode_name(StressMode mode) {
  switch (mode) {
    case StressMode::Sustained: return "sustained";
    case StressMode::Power: return "power";
    case StressMode::Pulse: return "pulse";
  }
  return "sustained";
}

std::optional<StressMode> parse_stress_mode(const std::string& name) {
  for (StressMode mode : {StressMode::Sustained, StressMode::Power, StressMode::Pulse}) {
    if (name == stress_mode_name(mode)) return mode;
  }
  return std::nullopt;
}

std::vector<std::string> stress_mode_names() { return {"sustained", "power", "pulse"}; }

}  // namespace gpubench
