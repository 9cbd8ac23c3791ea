#include "harness/acceptance/acceptance_level.hpp"

namespace gpubench {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

const std::vector<AcceptanceLevel>& levels() {
  static const std::vector<AcceptanceLevel> all = {
      {"quick", seconds(30), seconds(0), seconds(0), false},
      {"standard", minutes(2), minutes(1), minutes(1), false},
      {"long", minutes(8), minutes(3), minutes(3), true},
  };
  return all;
}

}  // namespace

std::optional<AcceptanceLevel> acceptance_level(const std::string& name) {
  for (const AcceptanceLevel& level : levels()) {
    if (level.name == name) return level;
  }
  return std::nullopt;
}

std::vector<std::string> acceptance_level_names() {
  std::vector<std::string> names;
  for (const AcceptanceLevel& level : levels()) names.push_back(level.name);
  return names;
}

std::vector<std::string> level_runs(const AcceptanceLevel& level) {
  std::vector<std::string> runs = {"doctor", "acceptance figures against the baseline"};
  runs.push_back("sustained stress " + std::to_string(level.sustained.count()) + " s (verified GEMM, memory test over all free memory" +
                 (level.interconnect ? ", checked P2P and PCIe copies beside it)" : ")"));
  if (level.power.count() > 0) runs.push_back("power target " + std::to_string(level.power.count()) + " s");
  if (level.pulse.count() > 0) runs.push_back("pulse " + std::to_string(level.pulse.count()) + " s (10 ms, 100 ms and 1 s periods)");
  return runs;
}

double estimated_seconds(const AcceptanceLevel& level) {
  double total = kFiguresSeconds - kStressSetupSeconds;  // the measured 43 s held the quick level's one set-up
  for (seconds run : {level.sustained, level.power, level.pulse}) {
    if (run.count() > 0) total += static_cast<double>(run.count()) + kStressSetupSeconds;
  }
  return total;
}

}  // namespace gpubench
