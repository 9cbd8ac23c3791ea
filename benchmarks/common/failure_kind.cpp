#include "benchmarks/common/failure_kind.hpp"

#include <array>
#include <utility>

namespace gpubench {
namespace {

constexpr std::array<std::pair<FailureKind, const char*>, 15> kNames = {{
    {FailureKind::Unknown, "unknown"},
    {FailureKind::WrongResult, "wrong_result"},
    {FailureKind::ApiError, "api_error"},
    {FailureKind::OutOfMemory, "out_of_memory"},
    {FailureKind::NoDevice, "no_device"},
    {FailureKind::HardwareError, "hardware_error"},
    {FailureKind::GateTimeout, "gate_timeout"},
    {FailureKind::ImplausibleResult, "implausible_result"},
    {FailureKind::NoValue, "no_value"},
    {FailureKind::ChildTimeout, "child_timeout"},
    {FailureKind::ChildCrashed, "child_crashed"},
    {FailureKind::ChildFailed, "child_failed"},
    {FailureKind::UnreadableOutput, "unreadable_output"},
    {FailureKind::CatalogueMismatch, "catalogue_mismatch"},
    {FailureKind::StressFinding, "stress_finding"},
}};

}  // namespace

const char* to_string(FailureKind kind) {
  for (const auto& [k, name] : kNames) {
    if (k == kind) return name;
  }
  return "unknown";
}

std::optional<FailureKind> parse_failure_kind(const std::string& text) {
  for (const auto& [k, name] : kNames) {
    if (text == name) return k;
  }
  return std::nullopt;
}

}  // namespace gpubench
