#pragma once
// How a Google Benchmark run that measured nothing says why, in the label (benchmarks/common/benchmark_label.hpp
// is the label of a run that measured): "outcome=skipped" (cannot run here: no GPU, unsupported feature) or
// "outcome=failed;kind=wrong_result" (ran and failed, see benchmarks/common/failure_kind.hpp). The reason is
// Google Benchmark's own error_message, unchanged, so its JSON reads plainly (error_occurred, error_message).
// Google Benchmark 1.7 has no skip of its own (SkipWithMessage came in 1.8): a skip is an error run whose label
// says skipped.
#include <optional>
#include <string>

#include "benchmarks/common/failure_kind.hpp"

namespace gpubench {

enum class RunState { Skipped, Failed };

struct RunOutcome {
  RunState state = RunState::Failed;
  FailureKind kind = FailureKind::Unknown;  // of a failure; a skip has none
};

std::string encode_outcome_label(const RunOutcome& outcome);
// The outcome a label starting "outcome=" gives, or nothing for any other label (an empty one: a gpubench-micro
// older than outcomes). Throws std::invalid_argument for an outcome label that is malformed: an unknown state
// or kind, a failure without its kind, a skip with one, or any other key.
std::optional<RunOutcome> decode_outcome_label(const std::string& text);

}  // namespace gpubench
