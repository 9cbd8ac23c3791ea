#pragma once
// Progress of `gpubench run` on stderr: on a terminal one line that updates in place (family, k of n,
// elapsed); otherwise one line when each family starts and ends, which reads well in CI logs.
#include <chrono>
#include <ostream>

#include "harness/results/run_observer.hpp"

namespace gpubench {

RunObserver make_progress_display(std::ostream& out, bool is_terminal);

}  // namespace gpubench
