#include "benchmarks/common/run_outcome.hpp"

#include <stdexcept>

namespace gpubench {
namespace {

constexpr const char* kOutcomeKey = "outcome=";

}  // namespace

std::string encode_outcome_label(const RunOutcome& outcome) {
  if (outcome.state == RunState::Skipped) return std::string(kOutcomeKey) + "skipped";
  return std::string(kOutcomeKey) + "failed;kind=" + to_string(outcome.kind);
}

std::optional<RunOutcome> decode_outcome_label(const std::string& text) {
  const std::string key = kOutcomeKey;
  if (text.rfind(key, 0) != 0) return std::nullopt;
  const std::size_t semicolon = text.find(';');
  const std::string state = text.substr(key.size(), semicolon == std::string::npos ? std::string::npos : semicolon - key.size());
  const std::string rest = semicolon == std::string::npos ? "" : text.substr(semicolon + 1);
  if (state == "skipped") {
    if (!rest.empty()) throw std::invalid_argument("outcome label '" + text + "': a skip has nothing after outcome=skipped");
    return RunOutcome{RunState::Skipped, FailureKind::Unknown};
  }
  if (state != "failed") throw std::invalid_argument("outcome label '" + text + "': outcome must be skipped or failed");
  const std::string kind_key = "kind=";
  if (rest.rfind(kind_key, 0) != 0) throw std::invalid_argument("outcome label '" + text + "': a failure needs ;kind=");
  const auto kind = parse_failure_kind(rest.substr(kind_key.size()));
  if (!kind) throw std::invalid_argument("outcome label '" + text + "': unknown failure kind");
  return RunOutcome{RunState::Failed, *kind};
}

}  // namespace gpubench
