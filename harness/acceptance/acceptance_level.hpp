#pragma once
// What each `gpubench acceptance --level` runs. Every level runs doctor and the acceptance figures against the
// baseline (about 43 s on two H200s, the stress run's set-up included: acceptance took 73 s there with its 30 s of
// stress); the levels differ in their stress:
//   quick     sustained 30 s                                                   (about 1 minute; the default)
//   standard  sustained 2 min, power target 1 min, pulse 1 min                 (about 5 minutes: 293 s)
//   long      sustained 8 min with P2P and PCIe copies beside it, power target
//             3 min, pulse 3 min                                               (about 15 minutes: 893 s)
// Each further stress run sets up again (operands, the checked reference product) for a few seconds. `--stress-duration`, `--power-duration`, `--pulse-duration` and `--interconnect` override a level's.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace gpubench {

struct AcceptanceLevel {
  std::string name;
  std::chrono::seconds sustained{30};
  std::chrono::seconds power{0};  // 0: not run
  std::chrono::seconds pulse{0};  // 0: not run
  bool interconnect = false;      // P2P and PCIe copies beside the sustained load
};

std::optional<AcceptanceLevel> acceptance_level(const std::string& name);
std::vector<std::string> acceptance_level_names();

// What the level runs, in order: "doctor", "acceptance figures against the baseline", "sustained stress 120 s", ...
std::vector<std::string> level_runs(const AcceptanceLevel& level);

// About how long the level takes on two H200s: the measured 43 s of doctor, figures and one stress set-up, each
// stress run's length, and kStressSetupSeconds for each further run's set-up (an estimate, not yet measured).
inline constexpr double kFiguresSeconds = 43;
inline constexpr double kStressSetupSeconds = 5;
double estimated_seconds(const AcceptanceLevel& level);

}  // namespace gpubench
