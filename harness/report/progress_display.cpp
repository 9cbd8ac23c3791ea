#include "harness/report/progress_display.hpp"

#include <memory>
#include <string>

#include "harness/report/text_table.hpp"

namespace gpubench {

RunObserver make_progress_display(std::ostream& out, bool is_terminal) {
  struct State {
    std::string prefix;
    std::chrono::steady_clock::time_point run_started = std::chrono::steady_clock::now();
  };
  auto state = std::make_shared<State>();
  RunObserver observer;
  observer.family_started = [&out, state, is_terminal](std::size_t k, std::size_t n, const std::string& family, std::size_t count) {
    state->prefix = "[" + std::to_string(k) + "/" + std::to_string(n) + "] " + family + " (" + std::to_string(count) +
                    " benchmark" + (count == 1 ? "" : "s") + ")";
    out << (is_terminal ? "\r\033[K" : "") << state->prefix << (is_terminal ? "" : " started\n") << std::flush;
  };
  if (is_terminal) {
    observer.family_tick = [&out, state](double elapsed) {
      const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - state->run_started).count();
      out << "\r\033[K" << state->prefix << "  " << format_number(elapsed, 0) << " s  (run " << format_number(total, 0)
          << " s)" << std::flush;
    };
  }
  observer.family_finished = [&out, state, is_terminal](const FamilyRun& run) {
    out << (is_terminal ? "\r\033[K" : "") << state->prefix << ": " << run.status << " in " << format_number(run.seconds, 1)
        << " s\n" << std::flush;
  };
  return observer;
}

}  // namespace gpubench
