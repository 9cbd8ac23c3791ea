// Failure kinds and run outcomes: named and parsed back exactly, and a malformed outcome label refused.
#include "benchmarks/common/failure_kind.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "benchmarks/common/run_outcome.hpp"

namespace gpubench {
namespace {

constexpr FailureKind kAll[] = {
    FailureKind::Unknown,      FailureKind::WrongResult,       FailureKind::ApiError,     FailureKind::OutOfMemory,
    FailureKind::NoDevice,     FailureKind::HardwareError,     FailureKind::GateTimeout,  FailureKind::ImplausibleResult,
    FailureKind::NoValue,      FailureKind::ChildTimeout,      FailureKind::ChildCrashed, FailureKind::ChildFailed,
    FailureKind::UnreadableOutput, FailureKind::CatalogueMismatch, FailureKind::StressFinding,
};

TEST(FailureKind, EveryKindRoundTripsThroughItsName) {
  for (FailureKind kind : kAll) {
    SCOPED_TRACE(to_string(kind));
    EXPECT_EQ(parse_failure_kind(to_string(kind)), kind);
  }
  EXPECT_EQ(std::string(to_string(FailureKind::GateTimeout)), "gate_timeout");
  EXPECT_FALSE(parse_failure_kind("Gate_Timeout").has_value());
  EXPECT_FALSE(parse_failure_kind("").has_value());
}

TEST(RunOutcome, FailuresAndSkipsRoundTripThroughTheLabel) {
  for (FailureKind kind : kAll) {
    const std::string label = encode_outcome_label({RunState::Failed, kind});
    SCOPED_TRACE(label);
    const auto back = decode_outcome_label(label);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->state, RunState::Failed);
    EXPECT_EQ(back->kind, kind);
  }
  EXPECT_EQ(encode_outcome_label({RunState::Failed, FailureKind::WrongResult}), "outcome=failed;kind=wrong_result");
  EXPECT_EQ(encode_outcome_label({RunState::Skipped, FailureKind::Unknown}), "outcome=skipped");
  const auto skip = decode_outcome_label("outcome=skipped");
  ASSERT_TRUE(skip.has_value());
  EXPECT_EQ(skip->state, RunState::Skipped);
}

TEST(RunOutcome, AFigureLabelOrNoLabelIsNoOutcome) {
  EXPECT_FALSE(decode_outcome_label("").has_value());
  EXPECT_FALSE(decode_outcome_label("figure=bandwidth;unit=GB/s;better=higher").has_value());
}

TEST(RunOutcome, AMalformedOutcomeLabelIsRefused) {
  for (const char* label : {"outcome=", "outcome=failed", "outcome=failed;kind=", "outcome=failed;kind=bad_luck",
                            "outcome=failed;kind=wrong_result;x=1", "outcome=skipped;kind=wrong_result", "outcome=passed"}) {
    SCOPED_TRACE(label);
    EXPECT_THROW(decode_outcome_label(label), std::invalid_argument);
  }
}

}  // namespace
}  // namespace gpubench
