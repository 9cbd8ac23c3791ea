#pragma once
// Progress of a run as it happens, reported by the runner (harness/runner/run_benchmarks.hpp) and drawn by the
// report (harness/report/progress_display.hpp); here, below both, so that neither reaches the other.
#include <cstddef>
#include <functional>
#include <string>

#include "harness/results/results_document.hpp"

namespace gpubench {

// Progress reports, so the CLI can draw them; every member may be left empty.
struct RunObserver {
  std::function<void(std::size_t k, std::size_t n, const std::string& family, std::size_t benchmarks)> family_started;
  std::function<void(double elapsed_seconds)> family_tick;
  std::function<void(const FamilyRun& run)> family_finished;
  std::function<void(const ResultsDocument& so_far)> checkpoint;  // after each family
};

}  // namespace gpubench
